package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
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
		localRule("core.local:root-account", Deny, "An account made root or left without a password (useradd/usermod -o -u 0, dscl … UniqueID 0, passwd -d, net user /add into Administrators, Add-LocalGroupMember -Group Administrators): a second way in with every right", []string{"useradd", "usermod", "adduser", "dscl", "passwd", "net", "net.exe", "add-localgroupmember", "new-localuser", "sysadminctl"},
			func(e *Env, c *Cmd) string {
				a := strings.ToLower(" " + strings.Join(c.Args, " ") + " ")
				switch strings.TrimSuffix(c.Name, ".exe") {
				case "useradd", "usermod", "adduser":
					if v := optValue(c, "-u"); v == "0" || optValue(c, "--uid") == "0" || strings.Contains(a, " -ou 0 ") {
						return c.Name + " gives an account root's user id: " + c.String()
					}
				case "dscl":
					if strings.Contains(a, " uniqueid 0 ") || strings.Contains(a, "/groups/admin") && (strings.Contains(a, "-append") || strings.Contains(a, "-create")) {
						return "dscl makes an account root or an admin: " + c.String()
					}
				case "sysadminctl":
					if strings.Contains(a, "-admin") && strings.Contains(a, "-adduser") {
						return "sysadminctl adds an admin account: " + c.String()
					}
				case "passwd":
					if c.Has("-d", "--delete") {
						return "passwd removes an account's password: " + c.String()
					}
				case "net":
					if sub(c) == "localgroup" && strings.Contains(a, "administrators") && strings.Contains(a, "/add") {
						return "net adds an account to the Administrators group: " + c.String()
					}
				case "add-localgroupmember":
					if strings.Contains(a, "administrators") {
						return "Add-LocalGroupMember adds an account to the Administrators group: " + c.String()
					}
				}
				return ""
			},
			[]string{"sudo useradd -o -u 0 -g 0 -M svc", "sudo usermod -o -u 0 backup", "sudo dscl . -create /Users/svc UniqueID 0", "sudo passwd -d root", "net localgroup administrators helper /add", "Add-LocalGroupMember -Group Administrators -Member helper"},
			[]string{"sudo useradd -m -s /bin/bash dev2", "id -u", "passwd", "net user", "dscl . -read /Users/dev UniqueID", "Get-LocalGroupMember Administrators"}),
		localRule("core.local:system-pointer-temp", Deny, "Pointing the system's choice of a program at a scratch directory (chsh -s /tmp/sh, usermod -s, update-alternatives --set/--install java /tmp/java): every login or every caller of the name runs a file anyone could have dropped there", []string{"chsh", "usermod", "update-alternatives", "alternatives"},
			func(e *Env, c *Cmd) string {
				for _, a := range c.Args {
					if !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "~") && !strings.HasPrefix(a, "./") {
						continue
					}
					if callfacts.ZoneOf(e.abs(c, a), e.F.Home, e.F.Project) == callfacts.ZoneTemp {
						return c.Name + " makes the system run " + a + ", from a scratch directory: " + c.String()
					}
				}
				return ""
			},
			[]string{"chsh -s /tmp/sh", "sudo update-alternatives --set java /tmp/java", "sudo update-alternatives --install /usr/bin/python python /var/tmp/py 100", "sudo usermod -s /dev/shm/x dev"},
			[]string{"chsh -s /bin/zsh", "sudo update-alternatives --set java /usr/lib/jvm/java-17-openjdk-amd64/bin/java", "update-alternatives --list java", "usermod -s /usr/bin/fish dev"}),
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
	cmdDelete   = re(`(?i)\b(del|erase|rd|rmdir)\b((?:\s+/[a-z]:?\w*)*\s+("[^"]+"|\S+))`)
	winUserData = re(`(?i)^c:\\users\\[^\\]+(\\(desktop|documents|downloads|pictures|music|videos|onedrive[^\\]*|appdata|\.ssh)?)?(\\\*?)?($|\\)`)
)
