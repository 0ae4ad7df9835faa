package policy

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// runtimes run code given on their command line or their input, in
// languages the shell reading does not parse: their text is judged by
// what it calls and what it names.
var runtimes = map[string]bool{"julia": true, "tclsh": true, "wish": true, "osascript": true, "groovy": true, "scala": true, "kotlin": true, "kotlinc": true,
	"swift": true, "jshell": true, "ghc": true, "runghc": true, "erl": true, "elixir": true, "iex": true, "racket": true, "guile": true, "sbcl": true,
	"clojure": true, "bb": true, "emacs": true, "pwsh": true, "powershell": true, "Rscript": true, "rscript": true, "R": true, "r": true, "crystal": true, "nim": true, "ocaml": true,
	"dotnet-script": true, "csi": true, "gawk": true, "awk": true, "mawk": true, "nawk": true, "php": true, "lua": true, "luajit": true, "node": true, "nodejs": true,
	"python": true, "python3": true, "python2": true, "ipython": true, "ipython3": true, "pypy3": true, "ruby": true, "perl": true, "deno": true, "bun": true, "dart": true}

// wipeCall: library calls that delete, empty or overwrite, across
// languages (the one-liner rules know the common ones by name).
var wipeCall = re(`rmtree|rm_rf|rmSync|rmdirSync|RemoveAll|remove_dir_all|removeDirectoryRecursive|del_dir_r|File\.rm_rf|deleteRecursively|Files\.delete|file\s+delete\s+-force|\brm\s*\(.*recursive\s*=\s*true|\bdelete\s*\(?\s*every\s+item|write_text\(\s*['"]{2}\s*\)|writeFileSync\([^,]+,\s*['"]{2}\s*\)|File\.write\([^,]+,\s*['"]{2}\s*\)|erase-buffer|printf\s+""\s*>|Remove-Item\b[^|]*-Recurse|truncate\(|deleteDir\(|\.delete\(\s*\)|removeItem\(|removeItemAt\w*\(|trashItemAt\w*\(|\.delete\(\s*Path\(|delete-directory|delete-file|\(system\s+"rm\s|system\s*\(\s*"rm\s|FileUtils\.rm|File\.delete\(|Files\.walk|unlink\(|\bfile\.remove\(\s*(?:Sys\.glob|list\.files|dir)\(|\bunlink\s+(?:glob\b|<|map\b|grep\b)`)

// userHomeRef: a reference to the user's home in any of those languages.
var userHomeRef = re(`homedir\(\)|expanduser|Path\.home\(\)|Dir\.home|user\.home|user_home|System\.user_home|ENV\[['"]HOME['"]\]|ENVIRON\[['"]HOME['"]\]|environ\[['"]HOME['"]\]|getenv\(['"]HOME['"]\)|process\.env\.HOME|\$env:USERPROFILE|\$HOME\b|~/|\bof home\b|\(every item of home\)|/home/[a-z]|/Users/[a-z]|NSHomeDirectory|sys\.props\(\s*"user\.home"|getProperty\(\s*"user\.home"|homeDirectoryForCurrentUser|Environment\.GetFolderPath|UserProfile`)

// runtimeWipeRule: a program of any language whose text deletes, empties
// or overwrites something it names in the user's home (julia rm(homedir()…;
// recursive=true), tclsh <<< 'file delete -force ~/x', osascript Finder
// delete every item of home, pathlib's write_text(”) on ~/.zshrc).
func runtimeWipeRule() Rule {
	return Rule{ID: "core.interp:wipe-home", Mode: Deny, Tools: shellTools, Cmds: slices.Sorted(maps.Keys(runtimes)),
		Desc: "Code in any language (one-liner, here-string or script text on the line) that deletes, empties or overwrites what it names in the user's home: the call is read from the text, the program need not have a rule of its own",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if !runtimes[c.Name] {
					continue
				}
				text := withCanonical(c.Name, c.Payload+"\n"+c.Heredoc+"\n"+strings.Join(c.Args, " "))
				if !wipeCall.MatchString(text) || !userHomeRef.MatchString(text) || callfacts.CacheOnly(text) {
					continue
				}
				return fmt.Sprintf("the %s code deletes, empties or overwrites something in the home directory: %s", c.Name, c.String())
			}
			return ""
		},
		Catch: []string{"julia -e 'rm(joinpath(homedir(), \"Documents\"); recursive=true)'", "tclsh <<< 'file delete -force ~/Documents'",
			"osascript -e 'tell application \"Finder\" to delete (every item of home)'", "python3 -c \"import pathlib;pathlib.Path.home().joinpath('.zshrc').write_text('')\"",
			"awk 'BEGIN{printf \"\" > ENVIRON[\"HOME\"]\"/.bashrc\"}'", "node -e \"require('fs').writeFileSync(require('os').homedir()+'/.npmrc','')\"",
			"pwsh -c 'Remove-Item -Recurse -Force $env:USERPROFILE/Documents'", "elixir -e 'File.rm_rf!(System.user_home!())'",
			"groovy -e 'new File(System.getProperty(\"user.home\")+\"/.ssh\").deleteDir()'", "scala -e 'new java.io.File(sys.props(\"user.home\"), \".gitconfig\").delete()'",
			"swift -e 'import Foundation; try FileManager.default.removeItem(atPath: NSHomeDirectory()+\"/Library/Mail\")'", "osascript -l JavaScript -e 'Application(\"Finder\").delete(Path(\"/Users/dev/Documents\"))'",
			"osascript -l JavaScript -e 'ObjC.import(\"Foundation\"); $.NSFileManager.defaultManager.removeItemAtPathError($(\"~/Library/Keychains\").stringByExpandingTildeInPath, null)'",
			"guile -c '(system \"rm -rf ~/.emacs.d\")'", "emacs --batch --eval '(delete-directory \"~/org\" t)'"},
		Allow: []string{"julia -e 'println(homedir())'", "python3 -c \"import shutil; shutil.rmtree('build')\"", "node -e \"require('fs').rmSync('dist', {recursive: true})\"",
			"python3 -c \"import shutil,os; shutil.rmtree(os.path.expanduser('~/.cache/pip'))\"", "osascript -e 'display notification \"done\"'", "awk '{print $1}' ~/notes.txt"}}
}
