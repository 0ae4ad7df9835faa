package policy

// builtinTriggers are the triggers of the built-in rules that are not
// indexed by program name (Cmds) and whose tools include a shell or any
// tool. A rule written later declares its own (Rule.On); an entry here is
// the same declaration kept in one table, so what runs on every call is
// visible on one screen. Each entry is a necessary condition read from the
// rule's Match: change one with the other.
var builtinTriggers = map[string]Trigger{
	// paths the call names
	"core.shell:dd-device":         On(FactWrite),                // a written path on a block device
	"core.paths:ssh":               On(FactHomeDot),              // ~/.ssh
	"core.paths:cloud-credentials": On(FactHomeDot),              // ~/.aws, ~/.config/gcloud, ~/.kube/config…
	"core.paths:gnupg":             On(FactHomeDot),              // ~/.gnupg
	"core.paths:etc":               On(FactEtc),                  // /etc, /private/etc
	"core.paths:credentials-files": On(FactPath),                 // any named path by its base name
	"core.paths:env-write":         On(FactWrite),                // a written .env
	"core.sensitive:project-file":  On(FactWrite),                // a written CI file, lockfile
	"core.self:settings-hooks":     On(FactWrite | FactNotShell), // a shell's writes, or a file tool's file
	"core.self:warden-files":       On(FactChange),               // a path not only read
	"core.self:hook-scripts":       On(FactWrite, "chmod"),       // a written hook script, chmod -x of one
	"core.secrets:in-content":      On(FactNotShell | FactWrite), // a file tool's content, or a line that writes
	"core.secrets:read-secret":     On(FactPath),                 // a read of a secret file
	"core.destroy:kernel-write":    On(FactWrite, "sysctl"),      // /proc, /sys written; sysctl -w
	"core.destroy:truncate":        On(FactRedirect, "ln", "truncate", "cp", "tee"),
	"core.zones:startup-hijack":    On(FactDerivation),                     // text planted to run later
	"core.zones:deny":              On(FactTouch),                          // the verdict table, per effect on a path
	"core.zones:ask":               On(FactTouch),                          //
	"core.zones:startup-replace":   On(FactTouch),                          //
	"core.zones:path-shadow":       On(FactTouch),                          //
	"core.zones:startup-append":    On(FactTouch),                          //
	"core.zones:autostart":         On(FactTouch, "ditto", "gcp", "rsync"), //

	// what the commands carry
	"core.shell:fork-bomb":              On(FactPipe | FactPayload), // a function piped into itself, a forking one-liner
	"core.interp:delete-root":           On(FactPayload),            // interpreter code
	"core.interp:one-liner":             On(FactPayload),            //
	"external.systems:api-call-in-code": On(FactPayload),            //
	"core.destroy:keylogger":            On(FactPayload, "xinput", "logkeys", "showkey", "evtest"),
	"core.indirect:unknown-script":      On(FactFeedUnknown),  // a shell fed text the line does not show
	"external.systems:unknown-destroy":  On(FactDeleteEffect), // the reading gives it the delete effect
	"core.destroy:remote-delete":        On(FactWrapped),      // under ssh, docker/kubectl exec

	// every call of their tools: what they read has no cheaper sign
	"core.shell:pipe-to-shell":            Any("a fetcher anywhere in the line, or a fetch hidden in a payload, a path or a substitution (fetchedElsewise)"),
	"core.sql:destroy-task-prod":          Any("framework and database tasks matched in every command's words (sqlkinds.txt, taskrunners.txt)"),
	"core.sql:destroy-task":               Any("framework and database tasks matched in every command's words (sqlkinds.txt, taskrunners.txt)"),
	"core.self:agent-files":               Any("an extraction directory of any archiver, besides the call's effects on paths"),
	"core.secrets:exfil":                  Any("any command may print a secret (the secret-printer tables) or dump the environment"),
	"core.secrets:exfil-send":             Any("any command may print a secret (the secret-printer tables) or dump the environment"),
	"external.systems:publish-verb":       Any("a publish word among any program's first arguments"),
	"core.indirect:unknown-command":       Any("a program named by a glob or a variable, on any command"),
	"core.destroy:project-wipe":           Any("whole-tree deletes read through xargs, git ls-files and interpreter code"),
	"core.destroy:history-wipe":           Any("history variables named anywhere in the line's text"),
	"core.zones:project-source":           Any("source deleted by find, git rm, mv or a glob emptied in a loop, besides effects on paths"),
	"core.net:remote-shell":               Any("a shell wired to a socket: /dev/tcp in the text, nc, socat, interpreter sockets"),
	"core.local:package-config-downgrade": Any("package managers' config files written by any command or redirect"),
	"core.local:env-downgrade":            Any("environment assignments anywhere in the line's text (downgrade.txt)"),
	"core.local:env-downgrade-deny":       Any("environment assignments anywhere in the line's text (downgrade.txt)"),
	"core.local:browser-data":             Any("browser profiles named in any command's arguments"),
	"core.local:history-read":             Any("history files named in any command's arguments, PowerShell's history path"),
	"core.local:agent-config-write":       Any("the agent's config named in any command's arguments or text"),
	"core.local:instruction-skip":         Any("the agent's instruction files named in any command's arguments or text"),
	"core.local:warden-read":              Any("warden's files named in any command's arguments"),
	"core.local:instruction-no-ask":       Any("the agent's instruction files named in any command's arguments or text"),
	"core.local:secret-in-message":        Any("a secret in the text of any command's message argument"),
	"core.local:pth-plant":                Any("a .pth file or site directory named in any command's arguments"),
	"core.local:tool-credentials":         Any("tools' credential files named in any command's arguments, any tool"),
}
