package policy

// pkill -f PATTERN ends every process of the user whose command line
// holds PATTERN, whatever program runs it: `pkill -f "artisan
// queue:work"` ends the queue workers, not the dev server `artisan serve`
// is (script14, docs/guards.md "Decided cases").

// sharedJobWords are words of a command line that make a dev tool's
// process a long-running job others may rely on (artisan queue:work,
// rails jobs:work, flask worker): not a dev server the agent started.
var sharedJobWords = map[string]bool{"queue": true, "work": true, "worker": true, "horizon": true, "schedule": true, "scheduler": true,
	"consume": true, "consumer": true, "beat": true, "cron": true, "jobs": true}
