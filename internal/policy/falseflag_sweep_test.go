package policy

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The false-flag sweep: harmless commands that look like risky ones,
// generated from the programs warden's own tables name, so a kind of
// false flag is found before a blind set finds it. Three families:
//
//   - reads: every program the tables name with its read-only forms
//     (help, version, status, list, get, describe, logs, diff, plan, a dry
//     run, a lint) against targets that say production, shared, a remote
//     host, /etc or home config;
//   - dev-local: a change verb against this machine's own services
//     (localhost, a compose service, a kind/minikube/k3d context, an
//     --env of local/dev/test, a project sqlite file, a *_test database);
//   - build output: a project's generated directories removed.
//
// Every line must be allowed (audit counts as allowed). The few forms
// that really print a secret or change something under a read word are
// named in sweepFlagged with the reason, by kind, not by line.

// sweepTables are the tables that name programs, and which field of a
// line holds the program: 1 the first, 2 the second, 0 every field after
// the first (verbs.txt local), only on lines whose first field is in
// kinds (none: every line).
var sweepTables = []struct {
	file  string
	field int
	kinds []string
}{
	{"../callfacts/tools.txt", 1, nil},
	{"../callfacts/verbs.txt", 0, []string{"local"}},
	{"../callfacts/cloudops.txt", 2, []string{"cli"}},
	{"../callfacts/remote.txt", 2, nil},
	{"../callfacts/clis/*.txt", 2, nil}, // the CLI catalogue, every file
	{"../callfacts/admin.txt", 2, nil},
	{"../callfacts/identity.txt", 2, nil},
	{"../callfacts/hostacts.txt", 2, nil},
	{"../callfacts/downgrade.txt", 2, nil},
	{"../callfacts/dumps.txt", 1, nil},
	{"../callfacts/envrun.txt", 1, nil},
	{"../callfacts/previews.txt", 1, nil},
	{"../callfacts/rshell.txt", 1, nil},
	{"../callfacts/secretprints.txt", 1, nil},
}

var (
	sweepName   = regexp.MustCompile(`^[a-z][a-z0-9_+-]*(\.py)?$`)
	sweepSub    = regexp.MustCompile(`^[a-z][a-z0-9:_.-]*(\|[a-z][a-z0-9:_.-]*)*$`)
	sweepCmdlet = regexp.MustCompile(`^(get|set|add|remove|new|update|invoke|clear|disable|enable|start|stop|restart|grant|revoke|reset|import|export|install|uninstall|register|unregister|connect|move|rename|suspend|resume|copy|mount|format|initialize)-`)
)

// sweepPrograms reads the programs the tables name. fileTools are the
// ones tools.txt alone names: their arguments are files, so only their
// help and version forms are theirs.
func sweepPrograms(t *testing.T) (clis, fileTools []string) {
	seen := map[string]bool{}
	onlyTools := map[string]bool{}
	for _, tb := range sweepTables {
		files, err := filepath.Glob(tb.file)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no table (%v)", tb.file, err)
		}
		var text []byte
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			text = append(append(text, b...), '\n')
		}
		for _, l := range strings.Split(string(text), "\n") {
			f := strings.Fields(l)
			if len(f) == 0 || strings.HasPrefix(f[0], "#") || len(tb.kinds) > 0 && !slices.Contains(tb.kinds, f[0]) {
				continue
			}
			var names []string
			switch {
			case tb.field == 0:
				names = f[1:]
			case len(f) >= tb.field:
				names = strings.Split(f[tb.field-1], "|")
			}
			// a program is a subcommand CLI when a line gives it a
			// subcommand word (or tools.txt its subcommands); one whose
			// name is its action (chage, a0deploy, Get-ADUser) has only
			// its help and version
			sub := tb.field == 0 || tb.kinds != nil ||
				strings.HasSuffix(tb.file, "tools.txt") && (strings.Contains(l, "subs=") || strings.Contains(l, "reports=") || strings.Contains(l, "globals=")) ||
				tb.field > 0 && !strings.HasPrefix(f[0], "@") && len(f) > tb.field && sweepSub.MatchString(f[tb.field])
			for _, n := range names {
				if !sweepName.MatchString(n) {
					continue
				}
				if !seen[n] {
					seen[n] = true
					onlyTools[n] = true
				}
				if sub && !sweepCmdlet.MatchString(n) {
					delete(onlyTools, n)
				}
			}
		}
	}
	for n := range seen {
		if onlyTools[n] || sweepNotCLI[n] {
			fileTools = append(fileTools, n)
		} else {
			clis = append(clis, n)
		}
	}
	sort.Strings(clis)
	sort.Strings(fileTools)
	return clis, fileTools
}

// sweepNotCLI take no subcommand first though a table names one of their
// words: their first argument is a job, a module, a disk or a command
// (at now, modprobe MODULE, parted DISK, diskpart's script), so "status"
// there is a name, not a read.
var sweepNotCLI = map[string]bool{
	"at": true, "atrm": true, "batch": true, "crontab": true, "scrontab": true, "modprobe": true, "rmmod": true, "insmod": true,
	"diskpart": true, "parted": true, "sgdisk": true, "sfdisk": true, "gdisk": true, "fdisk": true, "trash": true,
	// a device, disk or file first (fw_setenv VAR, cryptsetup DEVICE, code FILE), a host (ftp HOST, napalm's)
	"fw_setenv": true, "cryptsetup": true, "diskutil": true, "mdadm": true, "nvme": true, "code": true, "cursor": true,
	"ftp": true, "napalm": true, "bcp": true, "sc": true,
	// task runners and framework CLIs: the first word is a task or lane the
	// project defines (make deploy, fastlane prod, rake db:x), judged by its definition
	"make": true, "gmake": true, "just": true, "task": true, "go-task": true, "yarn": true, "gradle": true, "gradlew": true, "mvn": true,
	"ant": true, "rake": true, "invoke": true, "inv": true, "doit": true, "mage": true, "grunt": true, "gulp": true, "poe": true, "tox": true,
	"nox": true, "cap": true, "fastlane": true, "rails": true, "symfony": true, "mix": true,
	// wrappers: the first word is the program they run
	"screen": true, "aws-vault": true, "npx": true, "srun": true, "salloc": true, "mpirun": true, "mpiexec": true, "horovodrun": true, "bsub": true,
}

// sweepTargets say production, shared, a remote host, the system's
// config or the user's: what makes a read look like a risky change.
var sweepTargets = []string{
	"prod", "production", "--env=production", "--env production", "--context prod-eu-west-1", "--profile prod",
	"shared-platform", "--project shared-infra", "web-prod-01.acme.io", "--host db-prod.acme.internal",
	"/etc/nginx/nginx.conf", "~/.config/app/settings.toml", "-n prod", "--region us-east-1 prod-api",
}

// sweepReads are the read-only forms; T is where the target goes.
var sweepReads = []string{
	"P --help", "P --version", "P help", "P version", "P help deploy", "P deploy --help", "P delete --help",
	"P status T", "P list T", "P ls T", "P get T", "P describe T", "P show T", "P info T", "P logs T",
	"P diff T", "P plan T", "P whoami", "P config get T", "P config list", "P validate T", "P lint T",
	"P deploy T --dry-run", "P apply T --dry-run", "P delete T --dry-run", "P migrate T --dry-run",
	"P deploy T --check", "P deploy T --pretend", "P deploy T --simulate", "P deploy T --what-if", "P apply T --noop",
}

// sweepFileReads: a file tool's own help and version.
var sweepFileReads = []string{"P --help", "P --version"}

// sweepFlagged are the rules that rightly flag a read form, by kind: a
// secret store's get, show or config list prints the secret.
var sweepFlagged = map[string]string{
	"core.secrets:exfil": "a secret store's read prints its secrets (pass show, heroku config, wp config list)",
	// "RULE PROGRAM": the rule for that program alone
	"external.systems:remote-docker docker-compose": "a word no compose subcommand is (plan, lint) on a remote engine asks",
	"external.systems:remote-docker podman":         "the same for podman",
	"external.systems:remote-docker docker":         "the same for docker (docker get, docker show: no docker subcommand)",
	"external.systems:host-option-change systemctl": "a word no systemctl verb is (plan, logs, get) through --host asks",
	"external.systems:host-option-change loginctl":  "the same for loginctl",
}

// sweepOpen are the generated lines still flagged, each with why it is
// left: a kind another helper owns, or a decision kept. The test fails
// when one of them is allowed (update the list) or another line flags.
var sweepOpen = map[string]string{
	"npx prisma migrate reset --force":                                  "no environment shown: prisma resets whatever DATABASE_URL says (kept)",
	"npx prisma db push --force-reset":                                  "no environment shown (kept)",
	"docker compose run --rm web python manage.py flush --noinput":      "no settings shown (kept, as manage.py flush)",
	"dotnet ef database drop --force --environment Development":         "host-action rule reads no --environment (left)",
	"kubectl config use-context kind-kind && kubectl delete deploy web": "the context the line switched to is not carried to the next command (left)",
	"influx config get --host db-prod.acme.internal":                    "admin.txt's change rows for influx come before its read rows (left)",
	"dotenvx help deploy":                                               "a pass-through wrapper's own help is read as its unknown change verb (left)",
}

// sweepLocal: a change against this machine's own dev services.
var sweepLocal = []string{
	"psql -h localhost -U postgres -c 'DROP DATABASE app_dev'",
	"psql -h 127.0.0.1 -d shop_test -c 'TRUNCATE orders'",
	"psql postgres://postgres:postgres@localhost:5432/app_test -c 'DROP SCHEMA public CASCADE'",
	"dropdb -h localhost myapp_test",
	"dropdb --if-exists app_development",
	"createdb -h 127.0.0.1 app_test",
	"mysql -h 127.0.0.1 -u root -e 'DROP DATABASE shop_dev'",
	"mysql -u root -e 'drop database if exists app_test'",
	"redis-cli -h localhost flushall",
	"redis-cli -p 6380 flushdb",
	"mongosh mongodb://localhost:27017/app_dev --eval 'db.dropDatabase()'",
	"sqlite3 db/development.sqlite3 'DELETE FROM users'",
	"sqlite3 ./app.db 'DROP TABLE sessions'",
	"rm db/development.sqlite3",
	"rm -f db/test.sqlite3 tmp/dev.db",
	"php artisan migrate:fresh --seed",
	"php artisan migrate:fresh --env=testing",
	"php artisan db:wipe --env=testing --force",
	"php artisan migrate:refresh --env=local",
	"php artisan db:seed --env=local",
	"bin/rails db:reset",
	"bin/rails db:drop db:create db:migrate RAILS_ENV=test",
	"RAILS_ENV=development bundle exec rake db:reset",
	"python manage.py flush --noinput --settings=app.settings.dev",
	"python manage.py migrate --settings=config.settings.local",
	"python manage.py reset_db --settings=shop.settings.test",
	"npx prisma migrate reset --force",
	"npx prisma db push --force-reset",
	"NODE_ENV=test npx sequelize-cli db:drop",
	"DATABASE_URL=postgres://localhost/app_test npx prisma migrate reset --force",
	"alembic -x env=dev downgrade base",
	"mix ecto.reset",
	"MIX_ENV=test mix ecto.drop",
	"dotnet ef database drop --force --environment Development",
	"kubectl --context kind-dev delete namespace demo",
	"kubectl --context minikube delete pods --all",
	"kubectl --context k3d-local apply -f k8s/",
	"kubectl config use-context kind-kind && kubectl delete deploy web",
	"helm uninstall web --kube-context kind-dev",
	"helm upgrade --install web ./chart --kube-context minikube",
	"kind delete cluster --name dev",
	"k3d cluster delete local",
	"minikube delete -p dev",
	"docker compose down -v",
	"docker compose exec db psql -U postgres -c 'DROP DATABASE app_dev'",
	"docker compose exec -T db dropdb -U postgres app_test",
	"docker compose restart api",
	"docker compose run --rm web python manage.py flush --noinput",
	"docker exec -it myapp-db-1 psql -U postgres -c 'drop database app_test'",
	"docker volume rm myapp_pgdata",
	"awslocal s3 rb s3://test-bucket --force",
	"aws --endpoint-url http://localhost:4566 s3 rb s3://test-bucket --force",
	"curl -X DELETE http://localhost:9200/test-index",
	"curl -X DELETE http://127.0.0.1:8080/api/users/42",
	"firebase emulators:start --only firestore",
	"supabase db reset",
	"wrangler d1 execute app-db --local --command 'DELETE FROM users'",
}

// sweepOutDirs are the directories builds make in a project.
var sweepOutDirs = []string{
	"dist", "build", "target", "out", ".next", "node_modules", "staticfiles", "__pycache__", "coverage",
	"src/myapp.egg-info", "myapp.egg-info", ".nuxt", ".output", ".svelte-kit", ".turbo", ".parcel-cache",
	"storybook-static", "public/build", "htmlcov", ".pytest_cache", ".mypy_cache", ".tox", "_site", "bin/Debug", "obj",
	"static_root", "collected_static", ".angular", ".docusaurus", ".expo", "web-build", "lib-cov", "site",
}

// sweepOutForms remove a directory D; a build may follow.
var sweepOutForms = []string{
	"rm -rf D", "rm -rf D/", "rm -rf ./D", "rm -r D", "rm -rf D/*", "rimraf D", "npx rimraf D", "rm -rf D && npm run build",
	"rm -rf D/ && python manage.py collectstatic --noinput", "find D -type f -delete", "trash D", "del-cli D",
}

// sweepLine is one generated command and the kind it stands for.
type sweepLine struct{ cmd, kind string }

func sweepLines(t *testing.T) []sweepLine {
	clis, fileTools := sweepPrograms(t)
	var out []sweepLine
	for _, p := range clis {
		// the target turns with the form from a start fixed by the
		// program's name, so every pair of form and target meets across
		// the programs, and a program added to a table does not move
		// the targets every later program gets
		h := fnv.New32a()
		h.Write([]byte(p))
		n := int(h.Sum32() % uint32(len(sweepTargets)))
		for _, form := range sweepReads {
			tg := sweepTargets[n%len(sweepTargets)]
			n++
			cmd := strings.Replace(strings.Replace(form, "P", p, 1), "T", tg, 1)
			kind := "read " + strings.Replace(strings.TrimPrefix(form, "P "), " T", "", 1)
			out = append(out, sweepLine{cmd, kind})
		}
	}
	for _, p := range fileTools {
		for _, form := range sweepFileReads {
			out = append(out, sweepLine{strings.Replace(form, "P", p, 1), "read " + strings.TrimPrefix(form, "P ")})
		}
	}
	for _, c := range sweepLocal {
		out = append(out, sweepLine{c, "dev-local " + strings.Fields(c)[0]})
	}
	for _, d := range sweepOutDirs {
		for _, f := range sweepOutForms {
			out = append(out, sweepLine{strings.ReplaceAll(f, "D", d), "build-output " + strings.Fields(f)[0]})
		}
	}
	return out
}

func TestFalseFlagSweep(t *testing.T) {
	home, project := tempProject(t, map[string]string{"package.json": `{"scripts":{"build":"vite build"}}`, "manage.py": "", ".gitignore": "dist/\nbuild/\n"})
	e := TestEngine(Builtin(), nil, Options{})
	lines := sweepLines(t)
	byKind := map[string]int{}
	byRule := map[string]int{}
	var bad []string
	for _, l := range lines {
		call, err := CaseCall(l.cmd, home, project)
		if err != nil {
			t.Fatal(err)
		}
		res := e.Evaluate(context.Background(), Normalize(call))
		_, open := sweepOpen[l.cmd]
		if res.Decision != Ask && res.Decision != Deny {
			if open {
				t.Errorf("%s: allowed now: take it out of sweepOpen", l.cmd)
			}
			continue
		}
		top := res.Top()
		if sweepFlagged[top.ID] != "" || sweepFlagged[top.ID+" "+strings.Fields(l.cmd)[0]] != "" || open {
			continue
		}
		byKind[l.kind]++
		byRule[top.ID]++
		bad = append(bad, fmt.Sprintf("%s: %s by %s", l.cmd, res.Decision, top.ID))
	}
	t.Logf("sweep: %d lines, %d flagged", len(lines), len(bad))
	for _, m := range []map[string]int{byKind, byRule} {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] || m[keys[i]] == m[keys[j]] && keys[i] < keys[j] })
		for _, k := range keys {
			t.Logf("%5d  %s", m[k], k)
		}
	}
	for _, b := range bad {
		t.Error(b)
	}
}
