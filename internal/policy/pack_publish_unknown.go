package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Publishing by a program warden has no table for (s23): a subcommand
// that puts something in front of other people — a post, a toot, a
// notification, an announcement, a mail, a share link, a push of a
// model or package to a hub — is read by its verb, whatever the
// program: `zapctl notify --channel ops …`, `bsky post …`, `mlctl model
// push org/x:v7`, `dataset-cli share --public d42`. What is sent cannot
// be taken back, so a person should confirm (ask). Deploy, release,
// upload, submit and publish are the change and publish tables' own
// (callfacts/verbs.txt changes, external.systems:publish-verb); the
// verbs here are the rest of publishing. Local forms stay allowed:
// --help, dry runs, a read word first (zapctl notify list, bsky post
// show), an endpoint on this machine, and the words that name a stage
// or a local stack (post-install, stash push, quilt push, db push).

// publishSendVerbs: a first word that publishes or sends to others.
var publishSendVerbs = map[string]bool{"post": true, "repost": true, "crosspost": true, "notify": true, "announce": true, "broadcast": true,
	"email": true, "mail": true, "tweet": true, "retweet": true, "toot": true, "share": true, "distribute": true, "ship": true, "push": true,
	"comment": true, "reply": true, "message": true, "sms": true}

// publishSendNameParts: the last part of a program's name that is such a
// verb (slack-notify, teams-notify, discord-post, gh-release-upload is
// the upload rules'): the program does that one act.
var publishSendNameParts = map[string]bool{"notify": true, "announce": true, "broadcast": true, "tweet": true, "toot": true, "post": true, "share": true}

// publishSendLocal: programs whose push or post is local (a patch
// stack, the directory stack, the device helpers' push judged by the
// device rules), or whose words are a pattern or text.
var publishSendLocal = map[string]bool{"quilt": true, "stg": true, "guilt": true, "pushd": true, "popd": true, "adb": true, "hdc": true, "fastboot": true,
	"dolt": true, "sl": true, "hg": true, "jj": true, "fossil": true, "bzr": true, "darcs": true, "pijul": true, "yadm": true, "vcsh": true, "got": true, "svn": true,
	"notify-send": true, "systemd-notify": true, "sd-notify": true, "terminal-notifier": true, "dunstify": true, "kdialog": true, "zenity": true, "osascript": true}

// publishSendNounBefore: words before push that make it local or a
// change the change tables judge (git stash push, prisma db push: a
// schema pushed to the database the project is set up for).
var publishSendNounBefore = map[string]bool{"stash": true, "db": true, "schema": true, "patch": true, "patches": true, "stack": true, "dir": true, "dirs": true, "queue": true}

// publishSendTrigger: the words the rule looks for, as they appear in a
// command line (the trigger reads the raw line).
var publishSendTrigger = []string{"post", "notify", "announce", "broadcast", "mail", "tweet", "toot", "share", "distribute", "ship", "push", "comment", "reply", "message", "sms",
	"Post", "Notify", "Share", "Push", "Message", "Mail"}

func unknownPublishRule() Rule {
	return Rule{ID: "external.systems:unknown-publish", Mode: Ask, Tools: shellTools,
		On:   On(0).OrText(publishSendTrigger...),
		Desc: "A publish or send verb of a program warden has no table for (post, toot, tweet, notify, announce, broadcast, email, share, push to a hub, comment): publishing to other people, which cannot be taken back — a person should confirm; --help, dry runs, listings and local stacks (quilt push, stash push) stay allowed",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				v := publishSendVerb(c)
				if v == "" || e.dryRun(c) || c.Has("--help", "-h") || onlyHelp(c) || e.localOnly(i) || c.Captured {
					continue
				}
				return c.Name + " " + v + ": publishing or sending to others (unknown tool), a person should confirm: " + c.String()
			}
			return ""
		},
		Catch: []string{"zapctl notify --channel ops \"maintenance at 5\"", "bsky post \"new release\"", "toot post \"v2.0 is out\"", "mlctl model push acme/classifier:v7",
			"dataset-cli share --public dataset-42", "widgetctl announce \"v4 released\"", "reportgen email --to board@example.com q3.pdf", "slack-notify --channel '#ops' 'db restored'"},
		Allow: []string{"quilt push -a", "zapctl notify --help", "zapctl notify --dry-run x", "mlctl model list", "bsky post list", "notify-send 'build done'", "grep -rn post src/",
			"toolx db push", "mycli hooks post-install", "git push origin feature/x", "wrangler dev"}}
}

// publishSendVerb is the publish or send verb among c's first words (or
// its name's last part), "" for none, a program warden knows, a script.
func publishSendVerb(c *Cmd) string {
	if publishSendLocal[c.Name] || patternFilters[c.Name] || sendsRequests[c.Name] || strings.ContainsAny(c.Name, "/$=.") {
		return ""
	}
	hit := ""
	for j, w := range c.Pos {
		if j > 2 || hit != "" {
			break
		}
		if strings.ContainsAny(w, "/=@ .'\"$") {
			break // a path, a value, a message: the subcommand words are over
		}
		l := strings.ToLower(w)
		if !publishSendVerbs[l] && len(l) > 1 && callfacts.Known(l) {
			return "" // timeout 60 git push: a wrapper, the program it runs is judged as itself
		}
		if callfacts.ReadWord(l) {
			return "" // zapctl notify-rules list: what follows is listed
		}
		switch {
		case publishSendVerbs[l]:
			if l == "push" && j > 0 && publishSendNounBefore[strings.ToLower(c.Pos[j-1])] {
				return ""
			}
			hit = w
		case strings.ContainsAny(l, "-:_"):
			parts := strings.FieldsFunc(l, func(r rune) bool { return r == '-' || r == ':' || r == '_' })
			if len(parts) < 2 || !publishSendVerbs[parts[0]] || parts[0] == "post" || parts[0] == "push" {
				continue // notify-users, share-link, email-report; post-install is a stage, mail_version a setting
			}
			hit = w
			for _, p := range parts[1:] {
				if callfacts.ReadWord(p) || publishSendPartNot[p] {
					hit = ""
					break
				}
			}
		default:
			if camel := callfacts.CamelParts(w); len(camel) > 1 && publishSendVerbs[camel[0]] && camel[0] != "push" {
				hit = w // postMessage, notifyUsers
			}
		}
		if hit != "" && j+1 < len(c.Pos) {
			next := strings.ToLower(c.Pos[j+1])
			if callfacts.ReadWord(next) {
				return "" // bsky post list, zapctl notify status
			}
			if strings.HasPrefix(next, "/") || strings.Contains(next, "://") || strings.HasPrefix(next, "http") || privateHost(next) {
				return "" // stripe post /v1/…, xh post https://…: an HTTP request, judged by what it sends; balena push 192.168.1.50: a device here
			}
		}
	}
	if hit == "" {
		if i := strings.LastIndexAny(c.Name, "-_"); i > 0 && publishSendNameParts[strings.ToLower(c.Name[i+1:])] {
			hit = c.Name
		}
	}
	if hit == "" || c.Has("--testnet", "--regtest", "--signet", "--devnet", "--sandbox") || c.OwnTarget(true) || callfacts.Known(c.Name) {
		return "" // asked last: Known reads the tables, and most commands have no such word
	}
	return hit
}

// publishSendPartNot: words after a verb that make a joined word a
// setting or a stage, not the act (mail_version, share-config).
var publishSendPartNot = map[string]bool{"version": true, "versions": true, "config": true, "conf": true, "settings": true, "server": true, "servers": true,
	"log": true, "logs": true, "queue": true, "dir": true, "box": true, "template": true, "templates": true, "preview": true, "test": true, "hook": true, "hooks": true}

// privateHost: a word naming a machine on this network (a private IPv4
// address, a .local name, localhost).
func privateHost(w string) bool {
	h, _, _ := strings.Cut(w, ":")
	return h == "localhost" || strings.HasSuffix(h, ".local") || strings.HasPrefix(h, "192.168.") || strings.HasPrefix(h, "10.") || strings.HasPrefix(h, "127.") ||
		strings.HasPrefix(h, "172.") && len(h) > 6 && (h[4] == '1' && h[5] >= '6' && h[5] <= '9' || h[4] == '2' && h[5] >= '0' && h[5] <= '9' || h[4] == '3' && h[5] <= '1') && h[6] == '.'
}
