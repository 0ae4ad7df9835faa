package callfacts

import "testing"

// An admin program's action depends on where it acts: the same verb is
// the developer's own on this machine, a change elsewhere; a device's
// words count only in a remote shell; reads, help and dry runs are none.
func TestAdminAction(t *testing.T) {
	for _, tc := range []struct {
		line, level, kind string
		remote            bool
	}{
		{"redis-cli -h cache.example.net CONFIG SET requirepass ''", "deny", "off", true},
		{"redis-cli -h localhost CONFIG SET requirepass ''", "deny", "off", false},
		{"redis-cli -u redis://10.1.2.3:6379 CLIENT KILL TYPE normal", "ask", "change", true},
		{"redis-cli -h cache.example.net OBJECT FREQ k", "", "", false},
		{"redis-cli -h cache.example.net WAIT 1 0", "ask", "unknown", true},
		{"redis-cli WAIT 1 0", "", "unknown", false},
		{"napalm --user a --vendor eos sw1 configure x.cfg --strategy replace", "deny", "cut", true},
		{"napalm --user a --vendor eos sw1 configure x.cfg --dry-run", "", "", false},
		{"ssh admin@sw1 'reload'", "ask", "change", true},
		{"ros2 topic echo /cmd_vel", "", "", false},
	} {
		f := bash(tc.line)
		var got *AdminAct
		for i := range f.Commands {
			if a := f.Commands[i].AdminAction(); a != nil {
				got = a
			}
		}
		switch {
		case tc.kind == "" && got != nil:
			t.Errorf("%s: want no action, got %+v", tc.line, *got)
		case tc.kind != "" && got == nil:
			t.Errorf("%s: want %s:%s, got none", tc.line, tc.level, tc.kind)
		case got != nil && (got.Level != tc.level || got.Kind != tc.kind || got.Remote != tc.remote):
			t.Errorf("%s: want %s:%s remote=%v, got %+v", tc.line, tc.level, tc.kind, tc.remote, *got)
		}
	}
	if ThisMachine("$REDIS_HOST") || !ThisMachine("redis://127.0.0.1:6379/0") || !ThisMachine("/var/run/redis.sock") || ThisMachine("db.example.net:5432") {
		t.Error("ThisMachine misreads a host")
	}
	// SQL Server's forms: host,port, a protocol prefix, (local), .
	for h, want := range map[string]bool{"localhost,1433": true, "tcp:127.0.0.1,1433": true, "(local)": true, ".": true, `(localdb)\MSSQLLocalDB`: true,
		"sql-prod.example.net,1433": false, "tcp:sql-prod,1433": false, "127.0.0.1.evil.example,1433": false, "localhost,db2": false} {
		if ThisMachine(h) != want {
			t.Errorf("ThisMachine(%q) = %v, want %v", h, !want, want)
		}
	}
	if !LabTarget("lab-rtr1", nil) || LabTarget("core-sw01", nil) || LabTarget("", []string{"/dev/ttyUSB0"}) {
		t.Error("LabTarget misreads a lab")
	}
}
