package hook

// GrowStack gives the calling goroutine a stack big enough for a hook at
// once. A goroutine starts with 8 KiB and a hook runs deep (the SQLite
// engine keeps its C locals on the Go stack): the stack then doubles
// several times mid-hook, and each time the runtime copies it and adjusts
// every frame — about 6% of the keeper's CPU per hook, measured with
// perf. Growing it here, while the stack is still shallow, is one cheap
// copy.
//
// The resident server calls it first thing for each request, and the
// hook runtime in the goroutine that runs the handlers.
func GrowStack() { growStack(0) }

//go:noinline
func growStack(i int) byte {
	var pad [stackReserve]byte
	pad[i] = 1
	return pad[i/2]
}

// stackReserve is the frame growStack takes: the stack grows to the next
// power of two that holds it (64 KiB).
const stackReserve = 40 << 10
