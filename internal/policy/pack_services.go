package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// serviceTools start, stop and register services on Linux, macOS and
// Windows (systemctl is external.systems:systemctl-stop's).
var serviceTools = []string{"launchctl", "sc", "sc.exe", "net", "net.exe", "Stop-Service", "Remove-Service", "Set-Service", "brew", "rc-service",
	"rc-update", "sv", "supervisorctl", "pm2", "systemctl", "update-rc.d", "chkconfig", "loginctl", "tmux", "osascript",
	"iisreset", "iisreset.exe", // IIS's own stop switch
	"svc"} // daemontools' service control (Venus OS, embedded boards)

// serviceRules: services stopped or unregistered (deny: what the machine
// or the user's apps depend on stops, often until someone notices), and
// services registered or re-enabled (ask: something starts by itself
// after the session).
func serviceRules() []Rule {
	return []Rule{
		cmdRule("core.destroy:service-stop", Deny, "Stopping, unloading or removing a service outside systemd's system scope: launchctl unload/bootout/remove/disable, sc stop/delete, net stop, Stop-Service, rc-service stop, supervisorctl stop all, or systemctl stop/restart on another host", serviceTools,
			func(e *Env, c *Cmd) string {
				s := strings.ToLower(sub(c))
				switch c.Name {
				case "iisreset", "iisreset.exe":
					// /stop, /reboot, /disable: every site of the server stops
					// (a bare iisreset or /restart restarts: remote13's remote-admin)
					if anyPos(c, "/stop", "/reboot", "/disable", "-stop", "-reboot", "-disable", "/STOP", "/REBOOT", "/DISABLE") {
						return c.Name + " stops IIS and every site it serves: " + c.String()
					}
				case "launchctl":
					if s == "unload" || s == "bootout" || s == "remove" || s == "disable" {
						return "launchctl " + s + " stops a service or login item: " + c.String()
					}
				case "sc", "sc.exe":
					if s == "stop" || s == "delete" || s == "config" && strings.Contains(strings.ToLower(strings.Join(c.Args, " ")), "disabled") {
						return c.Name + " " + s + " stops or removes a Windows service: " + c.String()
					}
				case "net", "net.exe":
					if s == "stop" {
						return c.Name + " stop stops a Windows service: " + c.String()
					}
				case "Stop-Service", "Remove-Service":
					return c.Name + " stops or removes a Windows service: " + c.String()
				case "rc-service":
					if anyPos(c, "stop") {
						return "rc-service stops a service: " + c.String()
					}
				case "rc-update":
					if s == "del" || s == "delete" {
						return "rc-update removes a service from start-up: " + c.String()
					}
				case "sv":
					if s == "down" || s == "stop" || s == "exit" || s == "force-stop" {
						return "sv " + s + " stops a service: " + c.String()
					}
				case "svc":
					// svc -d /service/x: down (and kept down), -x: the
					// supervisor exits, -k: killed; -u, -t, -h restart or
					// signal it and it comes back (Android's svc wifi … takes
					// no such flag)
					for _, a := range c.Args {
						if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "dxkD") && len(c.Pos) > 0 {
							return c.Name + " " + a + " takes a supervised service down: " + c.String()
						}
					}
				case "brew":
					if s == "services" && anyPos(c, "stop", "kill") && c.Has("--all") {
						return "brew services stops every background service: " + c.String()
					}
				case "pm2":
					if (s == "delete" || s == "kill") && (anyPos(c, "all") || s == "kill") {
						return "pm2 stops every managed process: " + c.String()
					}
				case "loginctl":
					if s == "terminate-user" || s == "kill-user" || s == "terminate-session" || s == "kill-session" || s == "poweroff" || s == "reboot" {
						return "loginctl " + s + " ends a user's sessions: " + c.String()
					}
				case "tmux":
					if s == "kill-server" {
						return "tmux kill-server ends every tmux session (the agent's own included): " + c.String()
					}
				case "osascript":
					a := strings.ToLower(strings.Join(c.Args, " "))
					if strings.Contains(a, "shut down") || strings.Contains(a, "restart") || strings.Contains(a, "log out") {
						return "osascript shuts down, restarts or logs out the machine: " + c.String()
					}
				case "supervisorctl":
					if (s == "stop" || s == "remove") && anyPos(c, "all") {
						return "supervisorctl stops every program: " + c.String()
					}
				case "systemctl":
					if runsOverSSH(c, sshAnyWrapper) && (s == "stop" || s == "restart" || s == "disable" || s == "mask" || s == "kill") && !sshLab(e) && !hostOptionLab(e) {
						return "systemctl " + s + " on another host: " + c.String()
					}
				}
				return ""
			},
			[]string{"launchctl unload -w ~/Library/LaunchAgents/com.dropbox.DropboxMacUpdate.agent.plist", "launchctl bootout gui/501/com.docker.helper", "sc.exe stop MSSQLSERVER", "net stop wuauserv",
				"ssh db1 'sudo systemctl restart postgresql'", "rc-service nginx stop", "supervisorctl stop all", "sudo sv down nginx", "svc -d /service/dbus-mqtt", "ssh root@gw1 'svc -dx /service/collector'", "pm2 delete all", "brew services stop --all", "loginctl terminate-user dev", "tmux kill-server", "osascript -e 'tell application \"System Events\" to shut down'"},
			[]string{"launchctl list", "sc query", "net use", "brew services list", "supervisorctl status", "ssh db1 'systemctl status postgresql'", "systemctl restart nginx", "svc -t /service/dbus-mqtt", "svstat /service/dbus-mqtt", "adb shell svc wifi disable"}),
		cmdRule("core.destroy:service-change", Ask, "Registering, re-enabling or switching off a service the user runs: systemctl enable or --user disable/mask, launchctl load/bootstrap/enable, brew services start/stop, pm2 delete all, update-rc.d, chkconfig", serviceTools,
			func(e *Env, c *Cmd) string {
				s := strings.ToLower(sub(c))
				switch c.Name {
				case "systemctl":
					if s == "enable" || s == "reenable" || c.Has("--user") && (s == "disable" || s == "mask") || s == "set-default" || s == "isolate" {
						return "systemctl " + s + " changes what starts by itself: " + c.String()
					}
				case "launchctl":
					if s == "load" || s == "bootstrap" || s == "enable" || s == "submit" {
						return "launchctl " + s + " registers a service or login item: " + c.String()
					}
				case "brew":
					if s == "services" && anyPos(c, "start", "stop", "restart", "run", "kill", "cleanup") {
						return "brew services changes a background service: " + c.String()
					}
				case "pm2":
					if s == "stop" && anyPos(c, "all") {
						return "pm2 stops every managed process: " + c.String()
					}
				case "osascript":
					if a := strings.ToLower(strings.Join(c.Args, " ")); strings.Contains(a, "quit app") || strings.Contains(a, "to quit") {
						return "osascript quits an application the user has open: " + c.String()
					}
				case "update-rc.d", "chkconfig":
					if anyPos(c, "enable", "disable", "remove", "on", "off", "defaults", "--del", "--add") || c.Has("--del", "--add") {
						return c.Name + " changes what starts at boot: " + c.String()
					}
				}
				return ""
			},
			[]string{"systemctl --user disable --now syncthing", "launchctl load ~/Library/LaunchAgents/com.acme.sync.plist", "sudo systemctl enable --now x", "brew services stop postgresql@16", "pm2 stop all", "osascript -e 'quit app \"Mail\"'"},
			[]string{"systemctl --user stop app", "systemctl --user status", "launchctl list", "brew services list", "pm2 ls", "pm2 logs", "tmux ls", "osascript -e 'display notification \"done\"'"}),
	}
}

// hostOptionLab: a systemd tool of the line is pointed with -H/--host at
// a lab, dev or test box (systemctl -H vagrant@test-vm1 …), which
// callfacts reads as the same command over ssh.
func hostOptionLab(e *Env) bool {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if k, v, ok := strings.Cut(c.Remote, "="); ok && (k == "-H" || k == "--host") {
			if _, after, ok := strings.Cut(v, "@"); ok {
				v = after
			}
			if callfacts.LabTarget(v, nil) || devName(v) {
				return true
			}
		}
	}
	return false
}
