package callfacts

import (
	"bufio"
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"
)

var plainCorpus = flag.String("plaincorpus", "", "a JSON-lines file of {\"cmd\": …} for TestPlainWordsAgree")

// TestPlainWordsAgree: a line read without parsing (plainWords) gives the
// facts the parse gives, at the top and in the code it runs (each line is
// also read as the payload of sudo bash -c). -plaincorpus names a JSON-lines file of {"cmd": …} to
// check besides.
func TestPlainWordsAgree(t *testing.T) {
	cmds := []string{"git status", "ls -la", "go test ./...", "npm run build", "cat README.md",
		"rg -n TODO src/", "rm -rf ./build dist", "make", "make clean", "sudo rm -rf /", "git push --force",
		"kubectl delete ns prod", "nice -n 5 rm -rf /tmp/x", "env rm x", "alias", "source x.sh", ". x.sh",
		"bash x.sh", "sh", "python3 x.py", "find . -delete", "xargs rm", "time", "timeout 5 ls",
		"git -C /etc status", "aws s3 rm s3://b/k --recursive", "  ls   -la  ", "k get pods", "RM -RF /",
		"C:/Windows/rm.exe x", "a/b/c d", "-", "--", ".", ":", "cd /tmp", "pushd", "crontab x", "at now",
		"gh repo delete x/y --yes", "docker system prune -af", "terraform destroy -auto-approve",
		"git diff --stat && git log --oneline -5", "cd /tmp && rm -rf x", "cd /tmp; rm -rf x", "ls;", "ls ;pwd",
		"false || rm -rf /", "ls&&pwd", "ls &&", "; ls", "ls ; ; pwd", "ls && time rm x", "make clean && make",
		"sudo -i && rm -rf /", "cd && ls", "pushd /etc && ls && popd && ls", "bash && ls", "ls || ; pwd"}
	if p := *plainCorpus; p != "" {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var l struct{ Cmd string }
			if json.Unmarshal(sc.Bytes(), &l) == nil {
				cmds = append(cmds, l.Cmd)
			}
		}
	}
	for _, c := range cmds {
		if !strings.Contains(c, "'") {
			cmds = append(cmds, "sudo bash -c '"+c+"'")
		}
	}
	plain := 0
	for _, c := range cmds {
		if strings.HasPrefix(c, "sudo bash -c '") {
			if p := c[len("sudo bash -c '") : len(c)-1]; plainWords(p) == nil || setsVars(p) {
				continue
			}
		} else if plainWords(c) == nil || setsVars(c) {
			continue
		}
		plain++
		got, want := Bash(c, "/home/u/proj", "/home/u"), parsedBash(c, "/home/u/proj", "/home/u")
		if !reflect.DeepEqual(got, want) {
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(want)
			t.Errorf("%q read without parsing:\n%s\nparsed:\n%s", c, gj, wj)
		}
	}
	t.Logf("%d of %d lines read without parsing", plain, len(cmds))
}

// parsedBash is Bash with every line parsed.
func parsedBash(command, cwd, home string) *Facts {
	f := &Facts{Tool: "Bash", Cwd: cwd, Home: home, Project: cwd, Input: map[string]any{"command": command}}
	n := &normalizer{f: f, cwd: cwd, home: home, parseAll: true}
	n.bash(command)
	return f
}

func TestPlainWordsSplit(t *testing.T) {
	for src, want := range map[string][]string{
		"git status":         {"git", "status", ""},
		"  ls   -la ":        {"ls", "-la", ""},
		"a && b -x || c; d;": {"a", "", "b", "-x", "", "c", "", "d", ""},
		"ls&&pwd":            {"ls", "", "pwd", ""},
		"ls &&":              nil,
		"; ls":               nil,
		"ls ; ; pwd":         nil,
		"ls | wc":            nil,
		"ls &":               nil,
		"ls && time x":       nil,
		"echo 'x'":           {"echo", "x", ""},
		"echo $HOME":         nil,
		"x=1":                nil,
		"ls > f":             nil,
		"cat ~/.ssh/id_rsa":  nil,
		"ls\tx":              nil,
		"echo done && if":    nil,
		"echo done":          {"echo", "done", ""},
	} {
		if got := plainWords(src); !reflect.DeepEqual(got, want) {
			t.Errorf("plainWords(%q) = %q, want %q", src, got, want)
		}
	}
}
