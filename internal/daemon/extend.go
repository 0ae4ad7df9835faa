package daemon

// The daemon's extension points: other features add what they bring here,
// one line each, in the order they need (no init() registries).

// extendRunners adds agent runners (and agent control) before the
// scheduler is built.
func extendRunners(p *Parts) {}

// extendServer mounts handlers on the server (the dashboard at "/") once
// it is built.
func extendServer(p *Parts) {}
