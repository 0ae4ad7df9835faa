package testenv

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// PGServer is a throw-away PostgreSQL server: initdb into a temp dir,
// listening on a free loopback port with its unix socket in that dir, and
// trust authentication for the superuser "postgres". When the tests run
// as root the server runs as the unprivileged "postgres" user (PostgreSQL
// refuses to run as root), the dir chowned to it.
type PGServer struct {
	dir  string // temp dir: data/, the socket, the log
	bin  string // directory of initdb, pg_ctl, postgres
	port int
	cred *syscall.Credential // nil: run as ourselves
	// watchdog holds the write end of a pipe a detached shell reads: when
	// this process ends in any way, the read returns and the shell stops
	// the server and removes dir, so a crashed test leaves nothing behind.
	watchdog *os.File
}

// pgBinDir finds the directory holding initdb, pg_ctl and postgres: PATH
// first, then Debian's /usr/lib/postgresql/<version>/bin (newest first).
func pgBinDir() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	best, bestVer := "", -1
	for _, d := range dirs {
		v, err := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		if err != nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil && v > bestVer {
			best, bestVer = d, v
		}
	}
	if best == "" {
		return "", errors.New("PostgreSQL not found (no initdb/pg_ctl in PATH or /usr/lib/postgresql/*/bin): install it (apt-get install postgresql; make test does)")
	}
	return best, nil
}

// StartPGServer initdbs and starts a new server. The caller stops it
// (Stop, then Remove); the watchdog does both if the process dies first.
func StartPGServer() (*PGServer, error) {
	bin, err := pgBinDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "warden-pg-")
	if err != nil {
		return nil, err
	}
	s := &PGServer{dir: dir, bin: bin}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root needs the unprivileged user postgres to run PostgreSQL as: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := s.run(ctx, "initdb", "-D", s.data(), "-U", "postgres", "-A", "trust",
		"-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	if err := s.startWatchdog(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	// A free port can be taken between our probe and the server's bind;
	// try a few.
	for range 5 {
		if s.port, err = freePort(); err != nil {
			break
		}
		if err = s.Start(); err == nil {
			return s, nil
		}
	}
	s.Remove()
	return nil, err
}

// URL is the superuser's URL of database db on this server.
func (s *PGServer) URL(db string) string {
	u := url.URL{Scheme: "postgres", User: url.User("postgres"),
		Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)), Path: "/" + db,
		RawQuery: "sslmode=disable"}
	return u.String()
}

func (s *PGServer) data() string { return filepath.Join(s.dir, "data") }

// Start starts the (stopped) server on its port and waits until it
// accepts connections.
func (s *PGServer) Start() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	opts := strings.Join([]string{
		"-p", strconv.Itoa(s.port), "-k", s.dir, "-c", "listen_addresses=127.0.0.1",
		// A test server: durability is not the point, speed is.
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=200",
	}, " ")
	log := filepath.Join(s.dir, "server.log")
	if out, err := s.run(ctx, "pg_ctl", "-D", s.data(), "-l", log, "-o", opts, "-w", "-t", "50", "start"); err != nil {
		tail, _ := os.ReadFile(log)
		if len(tail) > 2000 {
			tail = tail[len(tail)-2000:]
		}
		return fmt.Errorf("pg_ctl start on port %d: %v\n%s\n%s", s.port, err, out, tail)
	}
	return nil
}

// Stop stops the server (fast shutdown: open sessions are ended).
func (s *PGServer) Stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if out, err := s.run(ctx, "pg_ctl", "-D", s.data(), "-m", "fast", "-w", "stop"); err != nil {
		return fmt.Errorf("pg_ctl stop: %v\n%s", err, out)
	}
	return nil
}

// RequirePassword makes TCP logins need a password (SCRAM), sets the
// superuser's to password and reloads the server; the unix socket stays
// trusted. For tests of a wrong password.
func (s *PGServer) RequirePassword(password string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "ALTER ROLE postgres PASSWORD "+quoteLiteral(password)); err != nil {
		return err
	}
	hba := "local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\nhost all all ::1/128 scram-sha-256\n"
	if err := os.WriteFile(filepath.Join(s.data(), "pg_hba.conf"), []byte(hba), 0o600); err != nil {
		return err
	}
	if s.cred != nil {
		os.Chown(filepath.Join(s.data(), "pg_hba.conf"), int(s.cred.Uid), int(s.cred.Gid))
	}
	if _, err := conn.Exec(ctx, "SELECT pg_reload_conf()"); err != nil {
		return err
	}
	// The reload is asynchronous: wait until a login without the password
	// is refused.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		c, err := pgx.Connect(ctx, s.URL("postgres"))
		if err != nil {
			return nil
		}
		c.Close(ctx)
	}
	return errors.New("pg_hba.conf reload did not take effect in 10 s")
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// Remove stops the server if it runs and deletes its directory.
func (s *PGServer) Remove() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s.run(ctx, "pg_ctl", "-D", s.data(), "-m", "immediate", "-w", "stop")
	os.RemoveAll(s.dir)
	if s.watchdog != nil {
		s.watchdog.Close() // the shell finds nothing left to do
		s.watchdog = nil
	}
}

func (s *PGServer) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd
}

func (s *PGServer) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	return s.command(ctx, name, args...).CombinedOutput()
}

// startWatchdog starts a detached shell (own process group, so ^C to the
// tests does not end it first) that waits for EOF on a pipe only this
// process holds, then stops the server and removes its directory.
func (s *PGServer) startWatchdog() error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	script := `read _ || true; "$1/pg_ctl" -D "$2/data" -m immediate -w stop >/dev/null 2>&1; rm -rf "$2"`
	cmd := exec.Command("/bin/sh", "-c", script, "pg-watchdog", s.bin, s.dir)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: s.cred}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return fmt.Errorf("pg watchdog: %v", err)
	}
	r.Close()
	// Reaped in the background; it lives as long as this process.
	go cmd.Wait()
	s.watchdog = w
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
