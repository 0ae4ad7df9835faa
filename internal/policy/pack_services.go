package policy

import (
	"strings"
)

// serviceTools start, stop and register services on Linux, macOS and
// Windows (systemctl is external.systems:systemctl-stop's).
var serviceTools = []string{"launchctl", "sc", "sc.exe", "net", "net.exe", "Stop-Service", "Remove-Service", "Set-Service", "brew", "rc-service",
	"rc-update", "sv", "supervisorctl", "pm2", "systemctl", "update-rc.d", "chkconfig"}

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
				case "supervisorctl":
					if (s == "stop" || s == "remove") && anyPos(c, "all") {
						return "supervisorctl stops every program: " + c.String()
					}
				case "systemctl":
					if onRemoteHost(c) && (s == "stop" || s == "restart" || s == "disable" || s == "mask" || s == "kill") {
						return "systemctl " + s + " on another host: " + c.String()
					}
				}
				return ""
			},
			[]string{"launchctl unload -w ~/Library/LaunchAgents/com.dropbox.DropboxMacUpdate.agent.plist", "launchctl bootout gui/501/com.docker.helper", "sc.exe stop MSSQLSERVER", "net stop wuauserv",
				"ssh db1 'sudo systemctl restart postgresql'", "rc-service nginx stop", "supervisorctl stop all"},
			[]string{"launchctl list", "sc query", "net use", "brew services list", "supervisorctl status", "ssh db1 'systemctl status postgresql'", "systemctl restart nginx"}),
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
					if (s == "delete" || s == "kill" || s == "stop") && (anyPos(c, "all") || s == "kill") {
						return "pm2 stops every managed process: " + c.String()
					}
				case "update-rc.d", "chkconfig":
					if anyPos(c, "enable", "disable", "remove", "on", "off", "defaults", "--del", "--add") || c.Has("--del", "--add") {
						return c.Name + " changes what starts at boot: " + c.String()
					}
				}
				return ""
			},
			[]string{"systemctl --user disable --now syncthing", "launchctl load ~/Library/LaunchAgents/com.acme.sync.plist", "sudo systemctl enable --now x", "brew services stop postgresql@16", "pm2 delete all"},
			[]string{"systemctl --user stop app", "systemctl --user status", "launchctl list", "brew services list", "pm2 ls", "pm2 logs"}),
	}
}

// onRemoteHost: the command runs on another host (inside ssh's payload).
func onRemoteHost(c *Cmd) bool {
	for _, w := range c.Wrappers {
		if w == "ssh" || strings.HasPrefix(w, "ssh ") {
			return true
		}
	}
	return false
}
