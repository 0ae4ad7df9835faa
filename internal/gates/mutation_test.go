package gates

import (
	"encoding/json"
	"testing"

	"github.com/warden-dev/warden/internal/event"
)

func TestBashMutation(t *testing.T) {
	mutating := []string{
		"rm -f build/out.o",
		"echo hi > notes.txt",
		"cat a >> b",
		"sed -i 's/a/b/' main.go",
		"perl -pi -e 's/x/y/' f",
		"git commit -m wip",
		"git -C sub push origin feature",
		"sudo -u root mv a b",
		"env FOO=1 cp a b",
		"timeout 5 touch x",
		"bash -c 'rm -rf dist'",
		`sh -c "bash -c 'mkdir d'"`,
		"eval 'rm x'",
		"find . -name '*.tmp' -delete",
		"find . -exec rm {} \\;",
		"ls | xargs rm",
		"npm install left-pad",
		"go get example.com/m@v1",
		"cmd > out.log 2>&1",
		"tee out.txt < in",
		"\\rm x",
		"(cd sub && git reset --hard)",
		"for f in *.go; do gofmt -w $f > $f.new; done",
		"if true; then chmod +x run.sh; fi",
		"echo $(touch marker)",
		"bash ./deploy.sh",
		"rm -rf / --no-preserve-root",
		"echo 'unterminated",
		`python3 -c 'open("x","w").write("y")'`,
		`node -e 'require("fs").writeFileSync("x","y")'`,
		`perl -e 'unlink "x"'`,
		`sqlite3 ~/.warden/warden.db "UPDATE settings SET value='' WHERE key='safemode'"`,
		`psql -c 'DROP TABLE users'`,
		"alias x='rm -f'",
		"curl -o out.bin https://example.com/x",
		"curl -sSLO https://example.com/x.tgz",
		"wget https://example.com/x.tgz",
		`f() { rm "$1"; }; f x`,
	}
	benign := []string{
		"ls -la",
		"git status",
		"git diff HEAD~1",
		"git log --oneline -5",
		"go test ./...",
		"npm test",
		"echo 'rm -rf /'",
		"echo hi > /dev/null",
		"cmd 2>/dev/null",
		"grep -r TODO .",
		"cat README.md | head",
		"find . -name '*.go'",
		"sed 's/a/b/' main.go",
		"go vet ./...",
		"make",
		"docker ps",
		"bash -c 'ls -la'",
		"sudo ls /root",
		"env | sort",
		"timeout 10 go test ./internal/...",
		"curl -s https://example.com",
		"git -C sub status",
		"npm run build",
		"python3 --version",
		`sqlite3 data.db "SELECT count(*) FROM t"`,
		"curl -s https://example.com/api | jq .",
		"wget -qO- https://example.com",
		"alias ll='ls -la'",
		"node script-that-reads.js --dry-run",
	}
	for _, c := range mutating {
		if m, why := BashMutation(c); !m {
			t.Errorf("%q: not a mutation", c)
		} else if why == "" {
			t.Errorf("%q: no reason", c)
		}
	}
	for _, c := range benign {
		if m, why := BashMutation(c); m {
			t.Errorf("%q: called a mutation (%s)", c, why)
		}
	}
}

func TestToolMutation(t *testing.T) {
	tests := []struct {
		tool  string
		input string
		want  bool
	}{
		{"Write", `{"file_path":"/p/a.go","content":"x"}`, true},
		{"Edit", `{"file_path":"/p/a.go"}`, true},
		{"MultiEdit", `{"file_path":"/p/a.go"}`, true},
		{"NotebookEdit", `{"notebook_path":"/p/a.ipynb"}`, true},
		{"Read", `{"file_path":"/p/a.go"}`, false},
		{"Grep", `{"pattern":"x"}`, false},
		{"WebFetch", `{"url":"https://x"}`, false},
		{"mcp__filesystem__write_file", `{}`, true},
		{"mcp__filesystem__edit_file", `{}`, true},
		{"mcp__github__create_or_update_file", `{}`, true},
		{"mcp__filesystem__read_file", `{}`, false},
		{"mcp__context7__get-library-docs", `{}`, false},
		{"Bash", `{"command":"rm x"}`, true},
		{"Bash", `{"command":"ls"}`, false},
	}
	for _, tt := range tests {
		in := &event.Input{ToolName: tt.tool, ToolInput: json.RawMessage(tt.input)}
		if got, _ := Mutation(in); got != tt.want {
			t.Errorf("%s %s: mutation = %v, want %v", tt.tool, tt.input, got, tt.want)
		}
	}
}
