package policy

import (
	"strings"
)

// Interpreter code that reads a secret from a file and prints it (s26),
// where the file table cannot see the file:
//   - the path comes from a variable whose name says it holds a secret
//     file: ruby -e 'puts File.read(ENV["KEY_PATH"])', python3 -c
//     'print(open(os.environ["KEY_FILE"]).read())', node -e
//     "console.log(fs.readFileSync(process.env.TOKEN_FILE,'utf8'))";
//   - the code parses a data file and prints a field named for a secret:
//     print(json.load(open('/etc/app/sa.json'))['private_key']),
//     console.log(require('./conf/app.json').db.password).
// Either puts the secret into the conversation (ask), as cat of the file
// or an echo of the field would. The length, a hash, whether it exists,
// and non-secret fields (['client_email'], ['token_uri'], .version) stay
// allowed.

// codeDataRead: a call that reads a file's text or parses it.
var codeDataRead = re(`\bopen\s*\(|read_text\s*\(|read_bytes\s*\(|readFileSync\s*\(|readFile\s*\(|\brequire\s*\(\s*['"./]|File\.read\s*\(|IO\.read\s*\(|File\.open\s*\(|file_get_contents\s*\(|\bslurp\s*\(|Get-Content\b|ReadAllText\s*\(|readLines\s*\(|readRDS\s*\(|fromJSON\s*\(`)

// codeSecretField: a subscript or attribute that names a secret field.
var codeSecretField = re(`(?i)(?:\[\s*['"]|\.)(\w*(?:password|passwd|passphrase|secret|token|private_?key|priv_?key|api_?key|access_?key|credentials?|auths|pwd)\w*)(?:['"]\s*\]|\b)`)

// codeFieldNot: field names with a secret word that hold no secret.
var codeFieldNot = re(`(?i)(?:_?(?:uri|url|urls|endpoint|type|types|id|ids|expiry|expires|expires_at|expiration|ttl|name|names|path|file|filename|length|len|count|prefix|policy|hint|set|required|enabled|header|field|env|var)$)|tokens$|^(?:tokenize\w*|tokens?_?count|tokenizer\w*|secretsmanager|credentials_provider|auth_provider)$|(?:page|next|continuation|sync|resume|cursor|csrf|xsrf)_?token`)

// codeMeasured: what is printed is a length, a hash or an existence.
var codeMeasured = re(`\blen\s*\(|\.length\b|\blength\s*\(|nchar\s*\(|strlen\s*\(|\.size\b|hashlib|sha256|sha1|md5|createHash|Digest::|exists|isfile|is_file|existsSync|\bbool\s*\(|is not None|!= *None|\.startswith\s*\(|\[\s*:\s*\d\s*\]|\[0:\d\]`)

// envPathRead: a file read whose path is an environment variable.
var envPathRead = re(`(?:open|read_text|readFileSync|readFile|File\.read|IO\.read|File\.open|file_get_contents|Path|expanduser|slurp|ReadAllText)\s*\(\s*(?:os\.path\.expanduser\s*\(\s*)?(?:os\.environ\[\s*['"](\w+)['"]|os\.environ\.get\(\s*['"](\w+)['"]|os\.getenv\(\s*['"](\w+)['"]|getenv\(\s*['"](\w+)['"]|process\.env\.(\w+)|process\.env\[\s*['"](\w+)['"]|ENV\[\s*['"](\w+)['"]|ENV\.fetch\(\s*['"](\w+)['"]|\$ENV\{\s*['"]?(\w+)|Sys\.getenv\(\s*['"](\w+)['"])`)

// printsReadSecret says what interpreter code prints of a secret it
// reads from a file, "".
func printsReadSecret(code string) string {
	if !keyPrintCall.MatchString(code) && !strings.Contains(code, "stdout.write") && !strings.Contains(code, "echo ") {
		return ""
	}
	if codeMeasured.MatchString(code) {
		return ""
	}
	for _, m := range envPathRead.FindAllStringSubmatch(code, 8) {
		for _, v := range m[1:] {
			if v != "" && secretFileVarName(v) {
				return "the file in $" + v
			}
		}
	}
	if !codeDataRead.MatchString(code) {
		return ""
	}
	for _, loc := range keyPrintCall.FindAllStringIndex(code, 16) {
		arg := code[loc[1]:]
		if k := strings.IndexAny(arg, ";\n"); k >= 0 {
			arg = arg[:k]
		}
		for _, f := range codeSecretField.FindAllStringSubmatch(arg, 8) {
			if !codeFieldNot.MatchString(f[1]) && !strings.Contains(f[0], "environ") && !strings.HasPrefix(f[0], ".env") {
				return "its " + f[1] + " field"
			}
		}
	}
	return ""
}

func interpPrintReadSecretRule() Rule {
	return cmdRule("core.interp:print-read-secret", Ask, "Interpreter code that reads a secret from a file and prints it: a file named by a variable that says it holds a key, token or password (File.read(ENV[\"KEY_PATH\"]), open(os.environ[\"KEY_FILE\"]).read()) or a secret-named field of a parsed file (json.load(open(...))['private_key'], require('./conf/app.json').db.password); its length, a hash, whether it exists and non-secret fields stay allowed", []string{"python", "python3", "node", "nodejs", "ruby", "deno", "bun", "php", "perl", "Rscript", "pwsh", "powershell"},
		func(e *Env, c *Cmd) string {
			code := c.Payload
			if code == "" {
				code = c.Heredoc
			}
			if code == "" || consumedByPipe(e.F.Commands, slicesIndex(e, c)) || reducedDownstream(e, slicesIndex(e, c)) || redirected(e, c.Name) {
				return ""
			}
			if what := printsReadSecret(code); what != "" {
				return c.Name + " code reads a secret from a file and prints " + what + " into the conversation"
			}
			return ""
		},
		[]string{`ruby -e 'puts File.read(ENV["KEY_PATH"])'`,
			`python3 -c 'import os; print(open(os.environ["KEY_FILE"]).read())'`,
			`python3 -c "import json; print(json.load(open('/etc/app/sa.json'))['private_key'])"`,
			`node -e "console.log(require('./conf/app.json').db.password)"`},
		[]string{`python3 -c 'import os; print(os.path.exists(os.environ["KEY_FILE"]))'`,
			`python3 -c "import json; print(json.load(open('/etc/app/sa.json'))['client_email'])"`,
			`node -e "console.log(require('./package.json').version)"`,
			`python3 -c "import json; print(len(json.load(open('creds.json'))['token']))"`,
			`python3 -c "import json; print(json.load(open('sa.json'))['token_uri'])"`})
}
