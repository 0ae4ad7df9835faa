package callfacts

// A project script named for sending messages to people
// (send_texts.py --campaign gotv, notify_customers.js, email-donors.sh,
// sms_blast.py) reaches people's phones and inboxes when it runs: a
// message sent cannot be unsent. Its name is read like scriptnames.go's
// change words, but without waiting for a commit flag — such a script's
// plain run is the send. A name needs a sending verb and a word for the
// messages or the people (send_metrics.py, notify_build.sh name neither),
// and --dry-run, --help, a test or preview name keep their verdict.

// messageVerbs send something to people.
var messageVerbs = map[string]bool{"send": true, "blast": true, "notify": true, "broadcast": true, "mail": true, "email": true, "text": true, "sms": true,
	"message": true, "announce": true, "remind": true, "invite": true, "mass": true, "bulk": true}

// messageNouns are the messages or the people a sending script reaches.
var messageNouns = map[string]bool{"texts": true, "text": true, "sms": true, "email": true, "emails": true, "mail": true, "mails": true, "mailing": true,
	"newsletter": true, "newsletters": true, "notification": true, "notifications": true, "messages": true, "message": true, "reminders": true,
	"reminder": true, "invites": true, "invitations": true, "campaign": true, "campaigns": true, "blast": true, "alerts": true, "users": true,
	"customers": true, "members": true, "subscribers": true, "contacts": true, "voters": true, "donors": true, "volunteers": true, "patients": true,
	"students": true, "parents": true, "recipients": true, "everyone": true, "all": true, "push": true, "whatsapp": true, "mms": true}

// messageScript: the name's words hold a sending verb and, another word,
// the messages or the people sent to.
func messageScript(words []string) string {
	verb := ""
	for _, w := range words {
		if messageVerbs[w] && verb == "" {
			verb = w
			continue
		}
		if verb != "" && messageNouns[w] {
			return verb
		}
	}
	for i, w := range words {
		// sms_blast, texts_send: the noun first
		if messageNouns[w] {
			for _, v := range words[i+1:] {
				if messageVerbs[v] && v != w {
					return v
				}
			}
		}
	}
	return ""
}

// quietMessageWords: words of a sending script's name that make its run
// a rehearsal (send_test_sms.py, preview_newsletter.js, email_demo.py);
// other everyday words in such a name (status, report, reminder list)
// are what it sends.
var quietMessageWords = map[string]bool{"test": true, "tests": true, "dry": true, "preview": true, "mock": true, "example": true, "sample": true,
	"demo": true, "fixture": true, "fixtures": true, "local": true, "dev": true, "tmp": true, "temp": true, "plan": true}
