package hookserve

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// DeclineSetting is the store setting that counts declined requests
// across servers and restarts: "COUNT\tUNIX-TIME\tLAST REASON". `warden
// doctor` shows it: a server that declines often makes every hook pay a
// second process start.
const DeclineSetting = "hook.declines"

// ParseDeclines reads DeclineSetting's value.
func ParseDeclines(v string) (count int64, at time.Time, why string) {
	f := strings.SplitN(v, "\t", 3)
	count, _ = strconv.ParseInt(f[0], 10, 64)
	if len(f) > 1 {
		if sec, err := strconv.ParseInt(f[1], 10, 64); err == nil {
			at = time.Unix(sec, 0)
		}
	}
	if len(f) > 2 {
		why = f[2]
	}
	return count, at, why
}

// declineWriter is what decline writes the reply to.
type declineWriter interface{ Write([]byte) (int, error) }

// decline tells the client to run the request itself, and logs and counts
// why.
func (s *Server) decline(conn declineWriter, why string) {
	s.declines.Add(1)
	s.pending.Add(1)
	s.lastWhy.Store(why)
	logf(s.o.Log, "declined a request: %s", why)
	select {
	case s.persist <- struct{}{}:
	default: // a save is already due; it takes this one too
	}
	conn.Write([]byte{'D'})
}

// saveDeclines adds pending declines to the store's count, off the
// request's path, until Shutdown closes persist (then once more).
func (s *Server) saveDeclines() {
	defer close(s.saved)
	for range s.persist {
		s.flushDeclines()
	}
	s.flushDeclines()
}

func (s *Server) flushDeclines() {
	n := s.pending.Swap(0)
	if n == 0 || s.o.Store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	prev, _, _ := s.o.Store.Setting(ctx, DeclineSetting)
	count, _, _ := ParseDeclines(prev)
	why, _ := s.lastWhy.Load().(string)
	why = strings.NewReplacer("\t", " ", "\n", " ").Replace(why)
	v := fmt.Sprintf("%d\t%d\t%s", count+n, time.Now().Unix(), why)
	if err := s.o.Store.SetSetting(ctx, DeclineSetting, v); err != nil {
		s.pending.Add(n)
		logf(s.o.Log, "could not count declines in the store: %v", err)
	}
}

func logf(w io.Writer, format string, a ...any) {
	fmt.Fprintf(w, "warden hook server: "+format+"\n", a...)
}
