package policy

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// secAgentsText lists the security agents (secagents.txt).
//
//go:embed secagents.txt
var secAgentsText string

var secAgents = sync.OnceValue(func() map[string]bool { return datatable.Words("secagents.txt", secAgentsText) })

// namedAgent is the first security agent words names, "" for none.
func namedAgent(words []string) string {
	for _, a := range words {
		for _, w := range strings.FieldsFunc(strings.ToLower(a), func(r rune) bool {
			return r == '/' || r == '.' || r == ',' || r == '=' || r == ' ' || r == '\\' || r == '"' || r == '\''
		}) {
			if secAgents()[w] {
				return w
			}
		}
	}
	return ""
}

// agentStopRule: a security agent's process paused or killed, or its
// service stopped: the machine stops watching what runs on it.
func agentStopRule() Rule {
	return localRule("core.local:agent-stop", Deny, "Pausing, killing or stopping a security agent (kill -STOP $(pgrep -f falcon-sensor), pkill osqueryd, systemctl stop auditd, launchctl unload …crowdstrike…, taskkill /IM MsMpEng.exe): the machine stops watching what runs on it; the agents are data (policy/secagents.txt)",
		[]string{"kill", "pkill", "killall", "taskkill", "taskkill.exe", "stop-process", "systemctl", "service", "launchctl", "sc", "sc.exe", "stop-service", "set-service", "skill"},
		func(e *Env, c *Cmd) string {
			switch strings.TrimSuffix(c.Name, ".exe") {
			case "kill", "pkill", "killall", "skill":
				if c.Has("-0", "-l", "-L", "-CONT", "-SIGCONT", "-18", "--list") {
					return ""
				}
				words := c.Args
				for i := range e.F.Commands { // kill $(pgrep -f falcon-sensor), kill `pidof osqueryd`
					if d := &e.F.Commands[i]; d.Captured && (d.Name == "pgrep" || d.Name == "pidof" || d.Name == "pgrep.exe") {
						words = append(append([]string(nil), words...), d.Args...)
					}
				}
				if a := namedAgent(words); a != "" {
					return c.Name + " stops or pauses " + a + ", a security agent"
				}
			case "taskkill", "stop-process", "stop-service":
				if a := namedAgent(c.Args); a != "" {
					return c.Name + " stops " + a + ", a security agent"
				}
			case "set-service":
				if a := namedAgent(c.Args); a != "" && hasFold(c, "disabled") {
					return "Set-Service disables " + a + ", a security agent"
				}
			case "systemctl", "service", "launchctl", "sc":
				if !anyPos(c, "stop", "disable", "mask", "kill", "unload", "bootout", "remove", "delete", "config") {
					return ""
				}
				if a := namedAgent(c.Pos); a != "" {
					return c.Name + " stops or disables " + a + ", a security agent"
				}
			}
			return ""
		},
		[]string{"sudo kill -STOP $(pgrep -f falcon-sensor)", "sudo pkill -9 osqueryd", "killall -STOP auditd", "sudo systemctl stop falcon-sensor.service", "taskkill /IM MsMpEng.exe /F",
			"sudo launchctl unload /Library/LaunchDaemons/com.crowdstrike.falcond.plist", "sudo service sentinelone stop", "kill -9 `pidof wazuh-agentd`", "sc stop WinDefend"},
		[]string{"pgrep -f falcon-sensor", "systemctl status osqueryd", "kill -CONT $(pgrep -f falcon-sensor)", "pkill -f 'node server.js'", "sudo systemctl restart auditd", "kill -0 $(pidof osqueryd)",
			"launchctl list | grep crowdstrike", "taskkill /IM node.exe /F", "sudo systemctl stop nginx"})
}
