package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// winAdminRules judge Windows' administration tools by their verb and
// target, as data (callfacts/winadmin.txt, win14): reg add under HKLM
// is system configuration and under HKCU the user's own (both ask; reg
// query reads), sc stop on \\fileserver asks and sc delete there is
// denied, icacls /grant on a share or a system path asks, net user /add
// asks and net localgroup Administrators /add is denied.
func winAdminRules() []Rule {
	says := map[string]string{
		"ask:system": "changes this machine's system configuration",
		"ask:home":   "changes the user's own Windows settings (HKCU)",
		"ask:remote": "changes another machine",
		"ask:people": "adds or removes accounts or group members",
		"ask:acl":    "changes permissions or ownership on a share or a system path",
		"deny:down":  "deletes a service on another machine",
		"deny:grant": "makes an administrator",
		"deny:open":  "opens a share to everyone",
	}
	rule := func(id string, mode Mode, prefix, desc string, catch, allow []string) Rule {
		return cmdRule(id, mode, desc, callfacts.WinAdminTools(),
			func(e *Env, c *Cmd) string {
				k := c.WinAdmin()
				if !strings.HasPrefix(k, prefix) {
					return ""
				}
				return c.Name + " " + says[k] + ": " + c.String()
			}, catch, allow)
	}
	return []Rule{
		emptyMirrorRule(),
		rule("core.destroy:windows-admin", Deny, "deny:",
			"A Windows administration tool that deletes a service on another machine (sc \\\\fs01 delete), makes an administrator (net localgroup Administrators x /add) or opens a share to everyone; the verbs and targets are data (callfacts/winadmin.txt)",
			[]string{`sc.exe \\fs01.corp.example delete LanmanServer`, `net localgroup Administrators bob /add`, `net group "Domain Admins" bob /add /domain`, `net share Data=D:\Data /grant:everyone,full`},
			[]string{`sc.exe \\fs01 query LanmanServer`, `net localgroup Administrators`, `net share`}),
		rule("core.destroy:windows-admin-change", Ask, "ask:",
			"A Windows administration tool that changes system configuration (reg add HKLM\\…, dism /disable-feature, bcdedit /default, gpupdate), the user's own settings (reg add HKCU\\…), another machine (sc \\\\fs01 stop, wmic /node:x … call), accounts (net user x /delete) or permissions on a share or a system path (icacls \\\\fs01\\HR$ /grant …); queries, listings and exports read; the verbs and targets are data (callfacts/winadmin.txt)",
			[]string{`reg.exe add 'HKLM\SYSTEM\CurrentControlSet\Control\Lsa' /v LmCompatibilityLevel /t REG_DWORD /d 5 /f`, `reg add HKCU\Control\x /v y /d 1 /f`, `sc.exe \\fs01 stop LanmanServer`, `icacls '\\fs01\HR$\Payroll' /grant 'CORP\HR:(OI)(CI)M' /T`, `net user bob /delete`, `dism /online /disable-feature /featurename:SMB1Protocol`},
			[]string{`reg query HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion`, `reg export HKCU\Software\Acme acme.reg`, `sc.exe \\fs01 query LanmanServer`, `icacls build /grant Users:R`, `net user`, `net view \\fs01`, `dism /online /get-features`, `wmic os get caption`, `schtasks /query /fo list`}),
	}
}

// emptySourceNames name a folder kept empty on purpose: mirrored onto a
// directory (robocopy empty D /MIR, rsync -a --delete empty/ D) it
// deletes everything there, the classic way to wipe a tree fast.
var emptySourceNames = map[string]bool{"empty": true, "blank": true, "null": true, "nothing": true, "void": true, "emptydir": true, "empty_dir": true, "empty-dir": true, "empty_folder": true, "emptyfolder": true}

// emptyMirrorRule: a mirror from an empty source onto a share, a drive or
// a directory outside the project and temp wipes it (win14); a mirror
// of real files there asks by the verdict table (core.zones).
func emptyMirrorRule() Rule {
	return cmdRule("core.destroy:empty-mirror", Deny, "A mirror from an empty folder (robocopy C:\\Temp\\empty \\\\fs01\\Profiles$ /MIR, /PURGE): everything at the destination is deleted; the tools that empty their destination are data (callfacts/tools.txt empties=)", []string{"robocopy", "robocopy.exe"},
		func(e *Env, c *Cmd) string {
			dirs := callfacts.EmptiedDirs(c)
			if len(dirs) == 0 {
				return ""
			}
			var src string
			for _, p := range c.Pos {
				if !strings.HasPrefix(p, "/") || strings.Count(p, "/") > 1 {
					src = p
					break
				}
			}
			base := strings.ToLower(src[strings.LastIndexAny(src, `\/`)+1:])
			if !emptySourceNames[base] {
				return ""
			}
			for _, d := range dirs {
				switch {
				case strings.HasPrefix(d, `\`) || len(d) > 1 && d[1] == ':':
				case strings.HasPrefix(d, "/") || strings.HasPrefix(d, "~"):
					if z := callfacts.ZoneOf(d, e.F.Home, e.F.Project); z == callfacts.ZoneProject || z == callfacts.ZoneTemp || z == callfacts.ZoneCache {
						continue
					}
				default:
					continue // a relative destination: the project's own
				}
				return c.Name + " mirrors the empty folder " + src + " onto " + d + ", deleting everything there: " + c.String()
			}
			return ""
		},
		[]string{`robocopy.exe 'C:\Temp\empty' '\\fs01.corp.example\Profiles$' /MIR /R:0 /W:0`, `robocopy 'D:\blank' 'E:\Backups' /PURGE`, `robocopy /MIR 'C:\t\null' '\\nas\home$\ana'`},
		[]string{`robocopy 'C:\Temp\empty' '\\fs01\Profiles$' /MIR /L`, `robocopy 'C:\Temp\empty' out /MIR`, `robocopy 'D:\src' '\\fs01\share' /E`})
}
