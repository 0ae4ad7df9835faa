package policy

import (
	"regexp"
	"strings"
)

// sysStateRules: the machine's running state — rescue mode, its Linux
// VMs, capabilities that make a program root — and Windows deletes handed
// to cmd.exe as one string.
func sysStateRules() []Rule {
	return []Rule{
		localRule("core.local:rescue-mode", Deny, "Switching the machine to rescue or emergency mode or halting it (systemctl isolate rescue.target|emergency.target|halt.target, systemctl rescue|emergency, telinit 1|S): every service and session stops", []string{"systemctl", "telinit", "init"},
			func(e *Env, c *Cmd) string {
				if c.Name == "systemctl" {
					if sub(c) == "rescue" || sub(c) == "emergency" || sub(c) == "isolate" && anyPos(c, "rescue.target", "emergency.target", "halt.target", "poweroff.target", "rescue", "emergency", "runlevel1.target", "shutdown.target") {
						return "systemctl switches the machine to a single-user or halted state: " + c.String()
					}
					return ""
				}
				if anyPos(c, "1", "s", "S", "single") {
					return c.Name + " switches the machine to single-user mode: " + c.String()
				}
				return ""
			},
			[]string{"sudo systemctl isolate rescue.target", "systemctl emergency", "sudo telinit 1", "systemctl isolate emergency.target"},
			[]string{"systemctl isolate graphical.target --help", "systemctl status", "systemctl get-default", "systemctl list-units"}),
		localRule("core.local:wsl-state", Ask, "Stopping or removing the machine's WSL distributions (wsl --shutdown, --terminate, --unregister): every Linux process and shell in them ends, --unregister deletes the distribution's disk", []string{"wsl", "wsl.exe", "wslconfig", "wslconfig.exe"},
			func(e *Env, c *Cmd) string {
				for _, a := range c.Args {
					switch strings.ToLower(a) {
					case "--shutdown", "--terminate", "-t", "--unregister", "/unregister", "/terminate":
						return c.Name + " stops or removes WSL distributions: " + c.String()
					}
					if !strings.HasPrefix(a, "-") {
						return "" // the command wsl runs follows
					}
				}
				return ""
			},
			[]string{"wsl --shutdown", "wsl.exe --terminate Ubuntu", "wsl --unregister Debian", "wslconfig /unregister Ubuntu"},
			[]string{"wsl -l -v", "wsl --status", "wsl ls -la", "wsl -d Ubuntu -- make test"}),
		localRule("core.local:setcap-root", Deny, "Giving a program root's powers through file capabilities (setcap cap_setuid/cap_sys_admin/cap_dac_override/cap_sys_ptrace/cap_dac_read_search…+ep): any user running it, an interpreter above all, can become root", []string{"setcap"},
			func(e *Env, c *Cmd) string {
				if c.Has("-r", "-v") {
					return ""
				}
				a := strings.ToLower(strings.Join(c.Args, " "))
				for _, k := range []string{"cap_setuid", "cap_setgid", "cap_sys_admin", "cap_dac_override", "cap_dac_read_search", "cap_sys_ptrace", "cap_sys_module", "cap_chown", "cap_fowner", "all+", "=ep"} {
					if strings.Contains(a, k) {
						return "setcap gives a program root's powers: " + c.String()
					}
				}
				return ""
			},
			[]string{"sudo setcap cap_setuid,cap_net_bind_service+ep \"$(readlink -f $(which node))\"", "setcap cap_dac_read_search+ep /usr/bin/python3.12", "sudo setcap cap_sys_admin+eip ./tool", "setcap =ep /usr/bin/perl"},
			[]string{"sudo setcap cap_net_bind_service=+ep ./server", "getcap /usr/bin/ping", "setcap -r ./server", "setcap -v cap_net_raw+ep /usr/bin/ping"}),
		localRule("core.local:cmd-delete", Deny, "A recursive delete handed to cmd.exe (cmd /c del /s, rd /s /q, rmdir /s) of a user's folders, a drive's root or the Windows directory", []string{"cmd", "cmd.exe"},
			func(e *Env, c *Cmd) string {
				code := strings.Join(c.Args, " ")
				if m := cmdDelete.FindStringSubmatch(code); m != nil && strings.Contains(strings.ToLower(m[2]), "/s") {
					t := strings.ToLower(strings.Trim(m[3], `"' `))
					if !strings.ContainsAny(t, `\/`) && strings.HasPrefix(t, "c:") {
						// the shell ate the backslashes of an unquoted C:\Users\…
						if strings.HasPrefix(t, "c:users") || strings.HasPrefix(t, "c:windows") || t == "c:" || t == "c:*" {
							return "cmd.exe deletes " + m[3] + " recursively"
						}
					}
					if winUserData.MatchString(t) || t == `c:\` || strings.HasPrefix(t, `c:\windows`) || strings.HasPrefix(t, `%userprofile%`) || strings.HasPrefix(t, `%appdata%`) || strings.HasPrefix(t, `%homepath%`) {
						return "cmd.exe deletes " + m[3] + " recursively"
					}
				}
				return ""
			},
			[]string{"cmd.exe /c \"del /s /q C:\\Users\\dev\\Desktop\\*\"", "cmd /c rd /s /q %USERPROFILE%\\Documents", "cmd /c rmdir /s /q C:\\Windows\\System32", "cmd /C \"del /f /s /q C:\\Users\\dev\\*\""},
			[]string{"cmd /c del /q build\\*.obj", "cmd /c rd /s /q .\\dist", "cmd /c dir C:\\Users\\dev", "cmd /c echo hi"}),
	}
}

var (
	cmdDelete   = regexp.MustCompile(`(?i)\b(del|erase|rd|rmdir)\b((?:\s+/[a-z]:?\w*)*\s+("[^"]+"|\S+))`)
	winUserData = regexp.MustCompile(`(?i)^c:\\users\\[^\\]+(\\(desktop|documents|downloads|pictures|music|videos|onedrive[^\\]*|appdata|\.ssh)?)?(\\\*?)?($|\\)`)
)
