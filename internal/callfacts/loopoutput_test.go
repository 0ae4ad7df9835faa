package callfacts

import (
	"fmt"
	"strings"
	"testing"
)

// A printing for loop piped to a shell runs one command per listed value
// (loopoutput.go); docker-compose reads as docker compose (composev1.go).
func TestLoopValuesAndComposeV1(t *testing.T) {
	var hosts []string
	for i := 0; i < 17; i++ {
		hosts = append(hosts, fmt.Sprintf("h%d", i))
	}
	many := strings.Join(hosts, " ")
	for _, tc := range []struct{ cmd, name, want string }{
		{`for h in web1 web2; do echo "ssh $h uptime"; done | sh`, "ssh", "ssh web1 uptime | ssh web2 uptime"},
		{`for h in db1 db2; do printf 'ssh %s df -h\n' "$h"; done | bash`, "ssh", "ssh db1 df -h | ssh db2 df -h"},
		{`for c in "make lint" "rm -rf ~"; do echo "$c"; done | sh`, "rm", "rm -rf ~"},
		{`for d in a a b; do echo "rm -rf /tmp/$d"; done | sh`, "rm", "rm -rf /tmp/a | rm -rf /tmp/b"},
		// past 16 values: read once, the variable holding its values
		{`for h in ` + many + `; do echo "ssh $h uptime"; done | sh`, "ssh", "ssh h0 uptime ssh h1 uptime ssh h2 uptime ssh h3 uptime ssh h4 uptime ssh h5 uptime"},
		{"docker-compose -p shop -f dev.yml exec -T api ls /app", "ls", "ls /app"},
		{"docker compose -f dev.yml --project-name shop exec api ls /app", "ls", "ls /app"},
		{"podman-compose run --rm api pytest -q", "pytest", "pytest -q"},
	} {
		if got := cmdLine(bash(tc.cmd), tc.name); got != tc.want {
			t.Errorf("%s: %s = %q, want %q", tc.cmd, tc.name, got, tc.want)
		}
	}
	if got := bash("docker-compose -p shop exec api ls /app"); !strings.Contains(strings.Join(got.Commands[len(got.Commands)-1].Wrappers, ","), "docker exec") {
		t.Errorf("docker-compose exec: wrappers %v, want docker exec", got.Commands[len(got.Commands)-1].Wrappers)
	}
}
