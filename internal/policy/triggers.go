package policy

import (
	"maps"
	"slices"
	"sync"

	"github.com/warden-dev/warden/internal/callfacts"
)

// builtinTriggers are the triggers of the built-in rules that are not
// indexed by program name (Cmds) and whose tools include a shell or any
// tool. A rule written later declares its own (Rule.On); an entry here is
// the same declaration kept in one table, so what runs on every call is
// visible on one screen. Each entry is a necessary condition read from the
// rule's Match: change one with the other.
//
// Built on first use, not at package init: a hook that evaluates no rule
// pays nothing for it.
var builtinTriggers = sync.OnceValue(func() map[string]Trigger {
	return map[string]Trigger{
		// paths the call names
		"core.shell:dd-device":               On(FactWrite),                // a written path on a block device
		"core.paths:ssh":                     On(FactHomeDot),              // ~/.ssh
		"core.paths:cloud-credentials":       On(FactHomeDot),              // ~/.aws, ~/.config/gcloud, ~/.kube/config…
		"core.paths:gnupg":                   On(FactHomeDot),              // ~/.gnupg
		"core.paths:etc":                     On(FactEtc),                  // /etc, /private/etc
		"core.paths:etc-secret-print":        On(FactEtc),                  // /etc's secrets printed
		"core.paths:credentials-files":       On(FactPath),                 // any named path by its base name
		"core.paths:env-write":               On(FactWrite),                // a written .env
		"core.sensitive:project-file":        On(FactWrite),                // a written CI file, lockfile
		"core.self:settings-hooks":           On(FactWrite | FactNotShell), // a shell's writes, or a file tool's file
		"core.self:warden-files":             On(FactChange),               // a path not only read
		"core.self:hook-scripts":             On(FactWrite, "chmod"),       // a written hook script, chmod -x of one
		"core.secrets:in-content":            On(FactNotShell | FactWrite), // a file tool's content, or a line that writes
		"core.secrets:read-secret":           On(FactPath),                 // a read of a secret file
		"core.secrets:secret-in-message":     On(0).OrText("$"),            // a variable or substitution in an argument
		"core.destroy:kernel-write":          On(FactWrite, "sysctl"),      // /proc, /sys written; sysctl -w
		"core.destroy:truncate":              On(FactRedirect, "ln", "truncate", "cp", "tee"),
		"core.zones:startup-hijack":          On(FactDerivation),                          // text planted to run later
		"core.zones:deny":                    On(FactTouch),                               // the verdict table, per effect on a path
		"core.zones:ask":                     On(FactTouch),                               //
		"core.zones:startup-replace":         On(FactTouch),                               //
		"core.zones:path-shadow":             On(FactTouch),                               //
		"core.zones:startup-loader":          On(FactDerivation),                          // text planted in a start-up file
		"core.zones:session-loader":          On(FactTouch),                               // a script the line writes
		"core.zones:raw-data-delete":         On(FactTouch),                               // a delete in raw data
		"core.zones:shared-delete":           On(FactTouch),                               // a recursive delete on shared storage
		"core.zones:shared-output":           On(FactPath),                                // a program's output path on shared storage
		"core.zones:shared-convert":          On(FactPath),                                //
		"core.zones:shared-move-away":        On(FactTouch),                               // a folder moved off shared storage
		"core.local:autorun-plant":           On(FactTouch | FactNotShell),                // a written instructions/task file
		"core.local:autorun-task":            On(FactTouch | FactNotShell),                //
		"core.secrets:print-credential-file": On(FactPath),                                // a credentials file read
		"core.secrets:borrowed-agent":        On(0).OrText("SSH_AUTH_SOCK"),               // the variable set on the line
		"external.systems:web-backdoor":      On(FactNotShell).OrText("$_", "req", "Req"), // written code that reads a request
		"external.systems:deploy-script":     On(FactInterp | FactScriptPath),             // deployScript: a shell's or interpreter's script operand, a command run by path
		"core.zones:startup-append":          On(FactTouch),                               //
		"core.zones:autostart":               On(FactTouch, "ditto", "gcp", "rsync"),      //

		// what the commands carry
		"core.shell:fork-bomb":              On(FactPipe | FactPayload), // a function piped into itself, a forking one-liner
		"core.interp:delete-root":           On(FactPayload),            // interpreter code
		"core.interp:one-liner":             On(FactPayload),            //
		"external.systems:api-call-in-code": On(FactPayload),            //
		"core.destroy:keylogger":            On(FactPayload, "xinput", "logkeys", "showkey", "evtest"),
		"core.indirect:unknown-script":      On(FactFeedUnknown),  // a shell fed text the line does not show
		"external.systems:unknown-destroy":  On(FactDeleteEffect), // the reading gives it the delete effect
		"external.systems:unknown-change":   On(FactWriteEffect),  // the reading gives it the write effect
		"external.systems:host-action":      On(FactWriteEffect),  // an action option or name verb aimed at another host (callfacts hostverbs.go)
		"core.destroy:remote-delete":        On(FactWrapped),      // under ssh, docker/kubectl exec
		"core.net:remote-file-edit":         On(FactWrapped),      // under ssh

		// the words of the line, and the rest
		"core.shell:pipe-to-shell":             On(FactFeed|FactInterp, append(slices.Clone(fetchNames), "deno", "bun", "node")...), // a fed shell, fetchedElsewise's runtimes, or a fetcher in the line
		"core.sql:destroy-task-prod":           On(FactInterp, dataTaskPrograms()...),                                               // a task runner of dataTasks, manage.py or artisan run by an interpreter, nc, an HTTP client
		"core.sql:destroy-task":                On(FactInterp, dataTaskPrograms()...),
		"core.self:agent-files":                On(FactTouch, append(slices.Sorted(maps.Keys(extractors)), "mv")...), // an effect on a path, an extractor's directory, cp/rsync/mv of a .claude
		"core.secrets:exfil":                   Any("any command may print a secret (the secret-printer tables) or dump the environment"),
		"core.secrets:exfil-send":              Any("any command may print a secret (the secret-printer tables) or dump the environment"),
		"external.systems:publish-verb":        On(0).OrWords("publish", "trunk", "upload", "owner", "access"),                                                            // publishVerbIn: a first positional, lowered, that is or ends in publish, or trunk, upload, owner, access
		"external.systems:public-acl":          On(0, "s3cmd").OrWords("public", "allusers", "allauthenticatedusers", "authenticated-read", "access-level", "visibility"), // publicACL: a value of publicACLValues, allusers…, a publicAccessOpts option, s3cmd -P
		"external.systems:cli-upload":          On(0).OrWords("upload"),                                                                                                   // cliUpload: a positional, lowered, that is or joins "upload"
		"core.secrets:print-named-secret-file": On(FactPath),                                                                                                              // a read of a file named for a secret
		"core.indirect:unknown-command":        On(FactOddName),                                                                                                           // a program named by a glob or a variable
		"core.destroy:project-wipe":            On(FactWrite, "find", "git", "rm"),                                                                                        // a path deleted, find -delete, git ls-files | xargs rm, rm -r *
		"core.git:repo-metadata":               On(FactWrite),                                                                                                             // a written or deleted path under .git
		"core.destroy:history-wipe":            On(FactWrite, "history", "unset").OrText("HIST"),
		"core.destroy:history-file-wipe":       On(FactWrite), // a written path named for a history file
		"core.zones:project-source":            On(FactTouch|FactRedirect, "git", "find", "fd", "mv", "truncate"),
		"core.net:remote-shell":                On(FactPipe|FactPayload, "nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "socat").OrText("/dev/tcp/", "/dev/udp/"),
		"core.local:package-config-downgrade":  On(FactTouch),     // a package manager's config among the effects on paths
		"core.local:env-downgrade":             On(0).OrText("="), // an assignment (callfacts.EnvDowngrade)
		"core.local:env-downgrade-deny":        On(0).OrText("="),
		"core.local:browser-data":              On(0).OrText("hrom", "irefox", "dge", "rave", "afari", "ookies", "ivaldi", "pera"), // browserHint
		"core.local:history-read":              On(0).OrText("istory", "ISTORY", "hst"),
		"core.local:agent-config-write":        On(FactTouch, "find", "fd", "fdfind"),
		"core.local:instruction-skip":          On(FactTouch | FactRedirect), // an instruction file written
		"core.local:warden-read":               On(0).OrText("warden"),
		"core.local:instruction-no-ask":        On(FactTouch | FactRedirect),
		"core.local:secret-in-message":         On(FactPath), // a secret file read into a substitution
		"core.local:pth-plant":                 On(FactTouch|FactRedirect, "cp", "mv", "install", "ln", "tee"),
	}
})

// touchZoneTriggers narrow the FactTouch of built-in rules (their own On
// or builtinTriggers) to effects on paths in given zones: a line that
// writes only in the project (go test | tee out.log) or in temp wakes none
// of them. Each entry is read from the rule's Match: it reads nothing but
// Touches, and skips every touch whose Zone is outside these. (Not here:
// home-data-rewrite and leak5's shared-overwrite also judge rewriters
// their programs do not name, qpdf-like --replace-input; remote13's
// shared-overwrite, of the same id, zones a path anew.)
var touchZoneTriggers = sync.OnceValue(func() map[string]zoneMask {
	outside := zonesOf(callfacts.ZoneElsewhere, callfacts.ZoneShared) // outsideZone
	return map[string]zoneMask{
		"core.zones:startup-replace":     zonesOf(callfacts.ZoneHomeConfig),                                               // tc.Zone == ZoneHomeConfig
		"core.zones:system-core-replace": zonesOf(callfacts.ZoneSystem),                                                   // tc.Zone == ZoneSystem
		"core.zones:startup-append":      zonesOf(callfacts.ZoneHomeConfig, callfacts.ZoneSystem, callfacts.ZoneHomeData), // home config, system, a PowerShell profile in home data
		"core.zones:shared-batch-delete": outside,                                                                         // outsideZone
		"core.zones:shared-batch-edit":   outside,                                                                         // outsideZone
		"core.zones:shared-delete":       outside,                                                                         // outsideZone
		"core.zones:shared-move-away":    outside,                                                                         // outsideZone
	}
})

// dataTaskPrograms are the programs dataDestroyRule reads: its task
// runners, and the clients it reads flush and wipe requests from.
func dataTaskPrograms() []string {
	out := append(slices.Sorted(maps.Keys(dataTasks)), "nc", "ncat", "telnet", "php")
	return append(out, slices.Sorted(maps.Keys(sendsRequests))...)
}
