package server

import (
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
)

// HostGuard wraps the daemon's front handler so that a request whose Host
// header does not name this daemon is refused with 421 on every route,
// the dashboard's too (hostAllowed). It guards what comes from the network
// only: in-process calls (the dashboard's own API calls) go to the server
// directly. hosts are serve.hosts.
func HostGuard(h http.Handler, hosts []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r, hosts) {
			writeError(w, http.StatusMisdirectedRequest, "wrong_host",
				fmt.Sprintf("Host %q is not this daemon's address; to reach it by that name, add the name to serve.hosts", r.Host))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// hostAllowed guards against DNS rebinding: a web page whose name is made
// to resolve to 127.0.0.1 can reach the loopback daemon from a browser,
// but its requests carry its own name in the Host header. Served are the
// address the connection came in on (IP and port; the unspecified address
// too), localhost on that port, and the names of serve.hosts (any port: a
// proxy in front may listen on another).
func hostAllowed(r *http.Request, hosts []string) bool {
	host, port := splitHost(r.Host)
	if host == "" {
		return false
	}
	if slices.ContainsFunc(hosts, func(h string) bool { return strings.EqualFold(h, host) }) {
		return true
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	lhost, lport := splitHost(local.String())
	if port != lport {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return net.ParseIP(lhost).IsLoopback()
	}
	// The unspecified address is what the CLI dials after a wildcard bind
	// (serve.addr 0.0.0.0:PORT writes [::]:PORT to serve.json); a literal
	// address cannot be rebound.
	ip, lip := net.ParseIP(host), net.ParseIP(lhost)
	return ip != nil && (ip.Equal(lip) || ip.IsUnspecified())
}

// splitHost splits "host:port", "[v6]:port" or a bare host.
func splitHost(hostport string) (host, port string) {
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		return h, p
	}
	return strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]"), ""
}
