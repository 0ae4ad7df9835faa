//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package hookclient

// fionread is FIONREAD on the BSDs and macOS: bytes waiting in a pipe or
// socket.
const fionread = 0x4004667f
