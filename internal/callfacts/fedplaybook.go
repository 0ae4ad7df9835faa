package callfacts

import "strings"

// stdinNames: the names a program opens to read its standard input as
// a file (ansible-playbook /dev/stdin, kubectl apply -f -, aws …
// file:///dev/stdin): the text fed on the line is that file's content.
var stdinNames = map[string]bool{"-": true, "/dev/stdin": true, "/dev/fd/0": true, "/proc/self/fd/0": true}

// StdinName: arg names standard input as a file, bare or as the value
// of a file:// or fileb:// parameter (aws), an @FILE (az, curl) or a
// NAME=FILE option (-var-file=/dev/stdin).
func StdinName(arg string) bool {
	if stdinNames[arg] {
		return true
	}
	if _, v, ok := strings.Cut(arg, "="); ok && strings.HasPrefix(arg, "-") {
		arg = v
	}
	arg = strings.TrimPrefix(arg, "@")
	for _, p := range []string{"file://", "fileb://"} {
		arg = strings.TrimPrefix(arg, p)
	}
	return arg == "/dev/stdin" || arg == "/dev/fd/0" || arg == "/proc/self/fd/0"
}

// fileText: the text of the file arg names when the line shows it: the
// input fed on the line when arg names standard input, or a file the
// line wrote earlier (cat > /tmp/p.yml <<EOF … EOF; ansible-playbook
// /tmp/p.yml).
func (n *normalizer) fileText(arg string, stdin *text) (string, bool) {
	if StdinName(arg) {
		if stdin != nil && stdin.known {
			return stdin.s, true
		}
		return "", false
	}
	if len(n.files) == 0 || strings.HasPrefix(arg, "-") {
		return "", false
	}
	if t, ok := n.files[NormPath(strings.TrimPrefix(arg, "file://"), n.cwd, n.home)]; ok && t.known {
		return t.s, true
	}
	return "", false
}

// playbookKeys: a play's or a task's own keys, never a module.
var playbookKeys = map[string]bool{"name": true, "hosts": true, "tasks": true, "pre_tasks": true, "post_tasks": true, "handlers": true, "roles": true,
	"become": true, "become_user": true, "become_method": true, "gather_facts": true, "vars": true, "vars_files": true, "when": true, "tags": true,
	"register": true, "notify": true, "loop": true, "with_items": true, "with_dict": true, "loop_control": true, "ignore_errors": true, "changed_when": true,
	"failed_when": true, "delegate_to": true, "run_once": true, "args": true, "environment": true, "no_log": true, "block": true, "rescue": true,
	"always": true, "serial": true, "connection": true, "remote_user": true, "any_errors_fatal": true, "strategy": true, "until": true, "retries": true,
	"delay": true, "check_mode": true, "diff": true, "listen": true, "import_playbook": true, "collections": true, "module_defaults": true, "async": true, "poll": true}

// taskLists: the keys whose lines under them are tasks.
var taskLists = map[string]bool{"tasks": true, "pre_tasks": true, "post_tasks": true, "handlers": true, "block": true, "rescue": true, "always": true}

// playbookTasks reads a playbook the line shows (fed on standard input
// or written earlier in the line) as the ad-hoc runs of its tasks:
// ansible HOSTS -i INV [-b] -m MODULE -a ARGS, each with the
// inventory, limit and check options the line gave, so the rules for
// ansible's modules judge what the play does on its hosts (file
// state=absent, service state=stopped, shell: rm -rf …).
func (n *normalizer) playbookTasks(c *Cmd, stdin *text, depth int, wrappers, upstream []string) {
	if c.Name != "ansible-playbook" || depth > 6 {
		return
	}
	var opts []string
	var book string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case (a == "-i" || a == "--inventory" || a == "-l" || a == "--limit" || a == "-e" || a == "--extra-vars" || a == "-u" || a == "--user") && i+1 < len(c.Args):
			opts = append(opts, a, c.Args[i+1])
			i++
		case a == "-C" || a == "--check" || a == "-b" || a == "--become" || strings.HasPrefix(a, "--inventory=") || strings.HasPrefix(a, "--limit="):
			opts = append(opts, a)
		case !strings.HasPrefix(a, "-") || a == "-":
			if t, ok := n.fileText(a, stdin); ok {
				book += t + "\n"
			}
		}
	}
	if strings.TrimSpace(book) == "" {
		return
	}
	hosts, become := "all", false
	lines := strings.Split(book, "\n")
	emitted := 0
	for k := 0; k < len(lines) && k < 400 && emitted < 32; k++ {
		line := strings.TrimRight(lines[k], " \t\r")
		body := strings.TrimLeft(line, " ")
		indent := len(line) - len(body)
		if d, ok := strings.CutPrefix(body, "- "); ok {
			body = strings.TrimLeft(d, " ")
			indent = len(line) - len(body)
		}
		key, val, ok := strings.Cut(body, ":")
		if !ok || key == "" || strings.HasPrefix(body, "#") || strings.ContainsAny(key, " \"'{[") {
			continue
		}
		val = strings.Trim(strings.TrimSpace(val), `"'`)
		switch {
		case key == "hosts" && val != "":
			hosts = val
			continue
		case key == "become" || key == "become_user":
			become = become || val == "true" || val == "yes" || key == "become_user"
			continue
		case playbookKeys[key]:
			if val == "" && !taskLists[key] {
				// vars:, environment:, loop: … : the lines under it are data
				for k+1 < len(lines) {
					next := strings.TrimRight(lines[k+1], " \t\r")
					if nb := strings.TrimLeft(next, " "); nb != "" && len(next)-len(nb) <= indent {
						break
					}
					k++
				}
			}
			continue
		}
		module := key
		if i := strings.LastIndexByte(module, '.'); i >= 0 {
			module = module[i+1:] // ansible.builtin.file
		}
		args := val
		if args == "" || args == "|" || args == ">" {
			// the module's arguments on the lines under it (path: /x,
			// state: absent) or a block of text (shell: |)
			block := args != ""
			var parts []string
			for k+1 < len(lines) {
				next := strings.TrimRight(lines[k+1], " \t\r")
				nb := strings.TrimLeft(next, " ")
				if nb == "" {
					k++
					continue
				}
				if len(next)-len(nb) <= indent {
					break
				}
				k++
				if block {
					parts = append(parts, nb)
				} else if kk, vv, ok := strings.Cut(nb, ":"); ok {
					parts = append(parts, strings.TrimSpace(kk)+"="+strings.Trim(strings.TrimSpace(vv), `"'`))
				}
			}
			sep := " "
			if block {
				sep = "\n"
			}
			args = strings.Join(parts, sep)
		}
		argv := append([]string{"ansible", hosts}, opts...)
		if become {
			argv = append(argv, "-b")
		}
		argv = append(argv, "-m", module)
		if args != "" {
			argv = append(argv, "-a", args)
		}
		emitted++
		n.derive("%s runs the play's task %s on %s", c.Name, module, hosts)
		n.command(argv, false, nil, depth+1, wrappers, upstream)
	}
}

// writtenFileArgs adds to c.Heredoc the text of the files its arguments
// name as file://PATH or @PATH that the line wrote earlier (cat >
// /tmp/b.json <<EOF … EOF; aws route53 … --change-batch
// file:///tmp/b.json): the program reads that text as the value.
func (n *normalizer) writtenFileArgs(c *Cmd) {
	if len(n.files) == 0 {
		return
	}
	for _, a := range c.Args {
		p, ok := strings.CutPrefix(a, "file://")
		if !ok {
			if p, ok = strings.CutPrefix(a, "fileb://"); !ok {
				p, ok = strings.CutPrefix(a, "@")
			}
		}
		if !ok || p == "" {
			continue
		}
		if t, ok := n.files[NormPath(p, n.cwd, n.home)]; ok && t.known && !strings.Contains(c.Heredoc, t.s) {
			c.Heredoc += t.s
		}
	}
}
