package policy

import (
	"strings"
)

// windowsRules: Windows' own commands, through cmd /c, PowerShell or WSL
// interop, judged by what they do: recursive deletes of the user's
// folders, autostart entries, admin accounts, world-writable ACLs.
func windowsRules() []Rule {
	names := []string{"rd", "rmdir", "del", "erase", "reg", "reg.exe", "schtasks", "schtasks.exe", "icacls", "icacls.exe", "takeown", "net", "net.exe",
		"wmic", "format", "format.com", "remove-item", "stop-process", "new-itemproperty", "set-itemproperty", "register-scheduledtask",
		"add-localgroupmember", "new-localuser", "wevtutil", "wevtutil.exe"}
	return []Rule{
		cmdRule("core.destroy:windows", Deny, "Windows commands that destroy, persist or open the machine: rd /s or Remove-Item -Recurse over the user's folders or a drive, autostart Run keys and logon tasks (reg add …\\Run, schtasks /create), new admin accounts, Everyone:F ACLs, shadow copies or event logs cleared, a drive formatted", names,
			func(e *Env, c *Cmd) string {
				a := strings.ToLower(strings.Join(c.Args, " "))
				has := func(xs ...string) bool {
					for _, x := range xs {
						if strings.Contains(a, x) {
							return true
						}
					}
					return false
				}
				userPath := has("users", "%userprofile%", "$env:userprofile", "c:", "appdata", "documents", "desktop", "~", "$home")
				switch strings.ToLower(c.Name) {
				case "rd", "rmdir", "del", "erase":
					if has("/s") && userPath {
						return c.Name + " /s deletes a tree of the user's or the drive's files: " + c.String()
					}
				case "remove-item":
					if has("-recurse", "-r ") && userPath {
						return "Remove-Item -Recurse deletes a tree of the user's files: " + c.String()
					}
				case "reg", "reg.exe":
					if has("currentversion\\run", "currentversionrun", "\\run ", "runonce", "winlogon", "image file execution options") {
						return "reg changes what Windows starts by itself: " + c.String()
					}
					if strings.HasPrefix(a, "delete") && has("hklm") {
						return "reg deletes machine-wide settings: " + c.String()
					}
				case "new-itemproperty", "set-itemproperty":
					if has("currentversion\\run", "runonce") {
						return c.Name + " adds an autostart entry: " + c.String()
					}
				case "schtasks", "schtasks.exe", "register-scheduledtask":
					if has("/create", "-trigger", "register") || strings.ToLower(c.Name) == "register-scheduledtask" {
						return c.Name + " schedules a program to run by itself: " + c.String()
					}
				case "icacls", "icacls.exe":
					if has("everyone", "*s-1-1-0", "users:f", "authenticated users") && has("/grant") {
						return "icacls gives everyone access: " + c.String()
					}
				case "takeown":
					if has("/r") {
						return "takeown takes ownership of a whole tree: " + c.String()
					}
				case "net", "net.exe":
					if has("/add") && (has("localgroup administrators") || strings.HasPrefix(a, "user ")) {
						return c.Name + " adds an account or an administrator: " + c.String()
					}
				case "add-localgroupmember", "new-localuser":
					return c.Name + " adds an account or an administrator: " + c.String()
				case "wmic":
					if has("shadowcopy delete") {
						return "wmic deletes the shadow copies (restore points): " + c.String()
					}
				case "wevtutil", "wevtutil.exe":
					if strings.HasPrefix(a, "cl") || strings.HasPrefix(a, "clear-log") {
						return "wevtutil clears an event log: " + c.String()
					}
				case "format", "format.com":
					if len(c.Pos) > 0 && strings.HasSuffix(c.Pos[0], ":") {
						return c.Name + " formats a drive: " + c.String()
					}
				// cipher /w overwrites only free space: no file is lost
				// (a whole drive's asks: callfacts/hostacts.txt)
				case "stop-process":
					if has("explorer", "winlogon", "lsass", "csrss", "svchost", "wininit") {
						return "Stop-Process ends a process Windows depends on: " + c.String()
					}
				}
				return ""
			},
			[]string{"cmd /c rd /s /q C:\\Users\\dev\\AppData", "reg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v upd /t REG_SZ /d x.exe /f", "schtasks /create /sc onlogon /tn upd /tr a.exe",
				"icacls C:\\Users\\dev /grant Everyone:F /T", "net user helper P@ssw0rd1 /add",
				"wmic shadowcopy delete"},
			[]string{"cmd /c dir", "reg query HKCU\\Software\\x", "schtasks /query", "icacls build", "net use", "del /q build\\*.obj", "pwsh -c 'Remove-Item -Recurse -Force ./dist'", "powershell -c 'Get-Process'"}),
	}
}
