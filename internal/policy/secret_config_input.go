package policy

// configInputOpts are the options through which a service's own command
// line tool is handed its configuration file: gitea admin user list -c
// /etc/gitea/app.ini reads the passwords in it to connect, and prints
// none of them.
var configInputOpts = map[string]bool{"-c": true, "--config": true, "-config": true, "--conf": true, "--config-file": true, "--configfile": true, "--config-path": true}

// secretViewers print or hand on what they read, whatever their -c means
// (grep -c counts the matching lines of the file named after it).
var secretViewers = map[string]bool{"cat": true, "less": true, "more": true, "head": true, "tail": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ack": true,
	"awk": true, "gawk": true, "sed": true, "jq": true, "yq": true, "bat": true, "batcat": true, "strings": true, "base64": true, "xxd": true, "od": true, "hexdump": true, "vim": true, "vi": true, "view": true,
	"nano": true, "emacs": true, "code": true, "cp": true, "scp": true, "rsync": true, "curl": true, "wget": true, "nc": true, "tee": true, "diff": true, "cut": true, "sort": true, "uniq": true, "tr": true, "dd": true}

// configFedTo: the secret file at p is only the configuration a program
// other than a viewer is started with (-c FILE, --config FILE): it reads
// its passwords to do its work and the file's contents stay out of the
// output.
func configFedTo(e *Env, via, p string) bool {
	if secretViewers[via] || privilegeWrappers[via] {
		return false
	}
	found := false
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name != via {
			continue
		}
		vals := c.OptValues(configInputOpts)
		if opts := authFileOpts[via]; opts != nil {
			vals = append(vals, c.OptValues(opts)...) // smbclient -A FILE (authfileopts.go)
		}
		for _, v := range vals {
			if e.abs(c, v) == p {
				found = true
			}
		}
		n := 0
		for _, a := range c.Pos {
			if e.abs(c, a) == p {
				n++
			}
		}
		if n > len(vals) {
			return false // the file is also an operand: read as data
		}
	}
	return found
}
