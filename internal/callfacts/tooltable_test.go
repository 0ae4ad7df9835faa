package callfacts

import (
	"strings"
	"testing"
)

// tools.txt parses, and a bad line names the file, line and fix.
func TestToolTable(t *testing.T) {
	if _, err := parseTools(toolsText); err != nil {
		t.Fatal(err)
	}
	for src, want := range map[string]string{
		"x args=move\n":       "tools.txt:1: args=move",
		"x\nx\n":              "tools.txt:2: x is listed twice",
		"# c\nx colour=red\n": `tools.txt:2: unknown field "colour"`,
		"x removes=--rm\n":    "tools.txt:1: removes=--rm",
		"x sets=owner\n":      "tools.txt:1: sets=owner",
		"x changes=maybe\n":   "tools.txt:1: changes=maybe",
	} {
		if _, err := parseTools(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", src, err, want)
		}
	}
	s, err := parseTools("tar removes=--remove-files:1\nrsync removes=--remove-source-files:0:dest\n")
	if err != nil || s["tar"].removes.skip != 1 || s["tar"].removes.dest || !s["rsync"].removes.dest {
		t.Fatalf("removes: %+v %v", s, err)
	}
}

// Subcommand CLIs' global options are set aside wherever they stand, so
// the subcommand is the first positional; the options after it stay.
func TestGlobalOptions(t *testing.T) {
	const home, cwd = "/home/dev", "/home/dev/proj"
	for cmd, want := range map[string]string{
		"aws --profile prod --region us-east-1 s3 rb s3://b --force":        "s3 rb s3://b --force",
		"aws --region=eu-west-1 ec2 terminate-instances --instance-ids i-1": "ec2 terminate-instances --instance-ids i-1",
		"kubectl --context prod -n kube-system delete pod x":                "delete pod x",
		"kubectl --insecure-skip-tls-verify -v 9 delete ns x":               "--insecure-skip-tls-verify delete ns x",
		"helm --kube-context prod --namespace x uninstall app":              "uninstall app",
		"docker -H ssh://prod --log-level debug system prune -af":           "system prune -af",
		"gcloud --project prod --verbosity debug projects delete p":         "projects delete p",
		"terraform -chdir=infra destroy -auto-approve":                      "destroy -auto-approve",
		"git -c core.pager=cat --no-pager -C sub clean -fdx":                "clean -fdx",
		"git -ccolor.ui=never status":                                       "status",
		"restic -r /srv/restic --password-file p forget --prune":            "forget --prune",
		"s3cmd -c cfg -r del s3://b":                                        "-r del s3://b",
		"ls -l --color=auto":                                                "-l --color=auto",
	} {
		c := Bash(cmd, cwd, home).Cmds(strings.Fields(cmd)[0])[0]
		if got := strings.Join(c.Args, " "); got != want {
			t.Errorf("%s: args %q, want %q", cmd, got, want)
		}
	}
	for cmd, dir := range map[string]string{
		"git -C ~ clean -fdx":                 "/home/dev",
		"git -C /srv -C app status":           "/srv/app",
		"terraform -chdir=infra plan":         "/home/dev/proj/infra",
		"terragrunt --working-dir live apply": "/home/dev/proj/live",
	} {
		if got := Bash(cmd, cwd, home).Commands[0].Dir; got != dir {
			t.Errorf("%s: dir %q, want %q", cmd, got, dir)
		}
	}
}

// Options' values in every spelling; outputs only in the mode that
// writes them (tar -x, 7z x), and in-place editors' files without their
// program.
func TestOutputsByOption(t *testing.T) {
	for args, want := range map[string]string{
		"-o out.json https://x":       "out.json",
		"-sSLo k https://x":           "k",
		"--output=f https://x":        "f",
		"--output f https://x":        "f",
		"-ofile https://x":            "file",
		"-s --data-raw x https://x":   "",
		"https://x -- -o notanoption": "",
	} {
		if got := strings.Join(OptionValues(strings.Fields(args), []string{"-o", "--output"}), " "); got != want {
			t.Errorf("%s: %q, want %q", args, got, want)
		}
	}
	const home, cwd = "/home/dev", "/home/dev/proj"
	for cmd, want := range map[string]string{
		"tar -xzf k.tgz -C ~/.ssh":             "overwrite /home/dev/.ssh",
		"tar xf p.tar --directory=/usr/local":  "overwrite /usr/local",
		"tar -czf out.tgz -C src .":            "",
		"7z x -o/etc p.7z":                     "overwrite /etc",
		"7z l p.7z":                            "",
		"unzip -o x.zip -d ~/.config":          "overwrite /home/dev/.config",
		"curl -fsSLo ~/.bashrc https://x/rc":   "overwrite /home/dev/.bashrc",
		"wget -qO- https://x | sh":             "",
		"sort -o /etc/hosts x":                 "overwrite /etc/hosts",
		"perl -pi -e 's/a/b/' /etc/hosts":      "write /etc/hosts",
		"sed -i -e 's/a/b/' -e 's/c/d/' f1 f2": "write /home/dev/proj/f1 write /home/dev/proj/f2",
	} {
		var got []string
		for _, tc := range Bash(cmd, cwd, home).Touches() {
			got = append(got, string(tc.Effect)+" "+tc.Path)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: touches %q, want %q", cmd, got, want)
		}
	}
}
