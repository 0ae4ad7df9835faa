package hookclient

// fionread is FIONREAD on Linux: bytes waiting in a pipe or socket.
const fionread = 0x541B
