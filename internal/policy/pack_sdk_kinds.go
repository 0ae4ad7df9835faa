package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Interpreter one-liners that call a remote client's methods by their
// kind, whatever the SDK: the method's name says what it does to the
// service's data. core.interp:sdk-destroy knows named SDKs' deleting
// calls (callfacts/sdkcalls.txt); these read the kind of call on any
// client the code makes:
//   - exposure: a share to anyone, a visibility made public, a public
//     ACL (.share(None, perm_type='anyone'), update_repo_visibility(…,
//     private=False), blob.make_public(), ACL='public-read') → deny;
//   - destroy by name: delete_*/del_*/drop_*/purge*/truncate*/destroy*
//     called on a client the code connects to a service → ask.

// codeExposes matches code that opens what a client holds to anyone.
var codeExposes = re(`(?i)perm_type\s*=\s*['"]anyone|\btype['"]?\s*:\s*['"]anyone['"]|\.share\([^)]*['"]anyone['"]|update_repo_visibility\([^)]*private\s*=\s*False|update_repo_settings\([^)]*private\s*=\s*False|\.make_public\(|\bacl['"]?\s*[:=]\s*['"]public-read|predefined_acl\s*=\s*['"]publicRead|['"]allUsers['"]|set_visibility\(\s*['"]public|visibility\s*=\s*['"]public['"]|\.publish_to_web\(|\bprivate['"]?\s*:\s*false|\bvisibility['"]?\s*:\s*['"]public['"]|access\s*=\s*['"]open['"]|anyone_with_link|['"]anyoneWithLink['"]`)

// codeClient matches code that makes a client of a remote service (a
// class instantiated, a connection, an authorized session, a class's
// from_config/from_env/from_url constructor: Client.from_config("conf/epp.ini")).
var codeClient = re(`\b(?:[A-Z]\w*|connect|client|service_account|authorize|resource|login|from_env)\s*\(|\b[A-Z]\w*\.from_(?:config|env|url|file|settings|profile|ini|dict|service_account\w*)\s*\(|\b[A-Z]\w*(?:::[A-Z]\w*)*\.new\b`) // Ruby's Aws::SQS::Client.new

// codeDestroyCall matches a method named for destroying, called on
// something with an argument naming what (not a module's own file
// helpers: os.remove, shutil.rmtree, Path.unlink are the path reading's;
// nor a data frame's drop_duplicates or a window's destroy()).
var codeDestroyCall = re(`\.(?:\w*delete\w*|del_\w+|drop_(?:table|database|db|collection|index|schema|user|bucket|keyspace|project|repo)\w*|purge\w*|truncate_\w+|destroy_\w+|wipe\w*|flush_?all|remove_(?:user|member|collaborator|repo|project|index|collection|table|bucket|page|space)\w*)\s*\(\s*[^)\s]`)

// quotedArg is the first quoted literal of a call's arguments.
var quotedArg = re(`^[^)'"]*['"]([^'"]*)['"]`)

// codeLocalClient: the client is on this machine, an in-memory store or a
// test double.
var codeLocalClient = re(`(?i)localhost|127\.0\.0\.1|:memory:|sqlite3|\bmock|fake|moto\b|testcontainers|/tmp/`)

// sdkExposeDestroyRules: an SDK client that exposes a resource, and one
// that calls a destroying method (core.interp:sdk-expose,
// core.interp:client-destroy-call).
func sdkExposeDestroyRules() []Rule {
	return []Rule{
		cmdRule("core.interp:sdk-expose", Deny, "Interpreter code that opens what a service holds to anyone through its client (gc.open(…).share(None, perm_type='anyone'), HfApi().update_repo_visibility(…, private=False), blob.make_public(), put_object(…, ACL='public-read'), an 'allUsers' binding): the data is public from then on, copied by whoever finds it", sdkRunners,
			func(e *Env, c *Cmd) string {
				text := runtimeText(c)
				if text == "" {
					return ""
				}
				if m := codeExposes.FindString(text); m != "" {
					return c.Name + " code makes a service's data public (" + m + ")"
				}
				return ""
			},
			[]string{`python3 -c "import gspread; gc=gspread.service_account(); gc.open('Payroll 2024').share(None, perm_type='anyone', role='reader')"`,
				`python -c "from huggingface_hub import HfApi;HfApi().update_repo_visibility('acme/internal-llm', private=False)"`,
				`python3 -c "from google.cloud import storage; storage.Client().bucket('acme-exports').blob('users.csv').make_public()"`,
				`python3 -c "import boto3; boto3.client('s3').put_object(Bucket='acme', Key='db.sql', Body=open('db.sql','rb'), ACL='public-read')"`,
				`node -e "drive.permissions.create({fileId:id,requestBody:{role:'reader',type:'anyone'}})"`,
				`node -e "octokit.repos.update({owner:'acme',repo:'core',private:false})"`, `python3 -c "from boxsdk import Client; Client(a).file('1').get_shared_link(access='open')"`},
			[]string{`python3 -c "import gspread; gc=gspread.service_account(); gc.open('Team').share('bob@acme.com', perm_type='user', role='reader')"`,
				`python -c "from huggingface_hub import HfApi;HfApi().update_repo_visibility('acme/internal-llm', private=True)"`,
				`python3 -c "import boto3; boto3.client('s3').put_object(Bucket='acme', Key='x', Body=b'x')"`,
				`python3 -c "print('make it public later')"`}),
		cmdRule("core.interp:client-destroy-call", Ask, "Interpreter code that calls a method named for destroying (delete_*, del_*, drop_*, purge*, truncate*, destroy*) on a client it connects to a remote service, whatever the SDK (gc.del_spreadsheet(…), jira.delete_project(…), es.indices.delete(…)): the service's data is deleted by a library call; a client on this machine, in memory or a test double is not flagged", sdkRunners,
			func(e *Env, c *Cmd) string {
				text := runtimeText(c)
				if text == "" || c.SDKDestroy() != "" {
					return "" // a named SDK's delete: core.interp:sdk-destroy
				}
				if m := codeClientDestroy(text); m != "" {
					return c.Name + " code calls " + m + " on a remote service's client"
				}
				return ""
			},
			[]string{`python3 -c "from jira import JIRA; JIRA('https://acme.atlassian.net', token_auth='x').delete_project('OPS')"`,
				`python3 -c "from elasticsearch import Elasticsearch; Elasticsearch('https://es.acme.io').indices.delete(index='logs-2024')"`,
				`python3 -c "import smartsheet; smartsheet.Smartsheet(t).Sheets.delete_sheet(123)"`,
				`python3 -c "from atlassian import Confluence; Confluence(url=u).remove_page(99); Confluence(url=u).delete_space('OPS')"`,
				`python -c "import dropbox; dropbox.Dropbox(t).files_delete_v2('/Team')"`},
			[]string{`python3 -c "import redis; redis.Redis('localhost').delete('k')"`,
				`python3 -c "from elasticsearch import Elasticsearch; print(Elasticsearch('https://es.acme.io').indices.get(index='logs-*'))"`,
				`python3 -c "d={'a':1}; d.pop('a'); print(d)"`,
				`python3 -c "import sqlite3; c=sqlite3.connect('x.db'); c.execute('select 1')"`,
				`python -c "from pinecone import Pinecone; Pinecone().delete_index('kb-ci-test-4821')"`,
				`python3 -c "import chromadb; c=chromadb.PersistentClient(path='./db'); c.delete_collection('docs')"`}),
	}
}

// codeClientDestroy: the destroy-named method code calls on a client of
// a remote service (delete_project, files_delete, remove_page, a bulk
// delete_multiple()), "" for none, a client of this machine, a test
// double, a dry run, a dev instance or what the tests made.
func codeClientDestroy(text string) string {
	m := codeDestroyCall.FindString(text)
	if m == "" {
		m = codeBulkDelete.FindString(text) // gr.delete_multiple(): every match of the query (interp_bulkdelete.go)
	}
	if m == "" || !codeClient.MatchString(text) || codeLocalClient.MatchString(text) || callfacts.SDKLocal(text) || callfacts.SDKDryRun(text) || clientNamesDev(text) {
		return "" // a DryRun=True call; a client of a dev instance (interp_bulkdelete.go): the service only checks it
	}
	end := strings.Index(text, m) + len(m)
	if q := quotedArg.FindStringSubmatch(text[end-1:]); q != nil && callfacts.SDKTestName(q[1]) {
		return "" // delete_index('kb-ci-test-4821'): what the tests made
	}
	return strings.TrimSpace(m[1:strings.IndexByte(m, '(')])
}
