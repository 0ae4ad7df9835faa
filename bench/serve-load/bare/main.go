// Command bare is the baseline of bench/serve-load: a bare net/http
// server in a process of its own, answering the load's requests with the
// statuses `warden serve` gives them (405 for a method it does not take,
// 401 without a token, 201 for a creation) and a small JSON body, and
// nothing else. It prints its address on stdout and serves until killed.
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
)

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("http://" + ln.Addr().String())
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		status := http.StatusOK
		switch {
		case r.Method != "GET" && r.Method != "POST":
			status = http.StatusMethodNotAllowed
		case r.URL.Path != "/health" && r.Header.Get("Authorization") == "":
			status = http.StatusUnauthorized
		case r.Method == "POST":
			status = http.StatusCreated
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(`{"status":"ok"}` + "\n"))
	}))
}
