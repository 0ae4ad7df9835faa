package callfacts

import (
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// Interpreter code that fetches text from the network and evaluates it
// runs code from elsewhere, like curl … | sh: exec(urlopen(u).read()),
// https.get(u, … eval(d)), eval(Net::HTTP.get(…)), iwr u | iex,
// IEX (New-Object Net.WebClient).DownloadString(u). Both halves must be in
// the code: a fetch that is printed or saved, or an eval of local text,
// is not this.
var (
	codeFetch = lazyre.New(`urlopen|urllib|requests\.get|httpx\.get|\bhttps?\.(?:get|request)\(|(?:^|[^.\w])fetch\(|Net::HTTP|open-uri|URI\.open|LWP|HTTP::Tiny|\bget\(\s*['"]https?:|file_get_contents\(\s*['"]https?:|curl_exec|DownloadString|DownloadFile|Net\.WebClient|(?i:invoke-webrequest|invoke-restmethod|\biwr\b|\birm\b)|socket\.http|` + "`" + `\s*(?:curl|wget)\b|(?:popen|check_output|execSync|readpipe|qx)\(\s*['"](?:curl|wget)\b|download\.file|Downloads\.download|HTTP\.get\(|readLines\(\s*(?:url\()?['"]https?:`)
	codeEval  = lazyre.New(`\b(?:exec|eval)\s*\(|\binclude\(\s*(?:Downloads\.)?download\(|\beval\s+[A-Za-z_$]|\.then\(\s*eval\b|\bFunction\(|runIn(?:This|New)Context|instance_eval|loadstring\(|\beval\(parse\(|(?i:\biex\b|invoke-expression)`)
	// R's source("https://…") and PHP's include of a URL fetch and run in one call.
	codeRunURL = lazyre.New(`\b(?:source|include|require(?:_once)?|sys\.source)\s*\(\s*(?:url\(\s*)?['"]https?://`)
	// R's download.file(u, "f.R") and then source("f.R"): the file it
	// saved is the code it runs
	codeSaved = lazyre.New(`download\.file\(\s*(?:url\s*=\s*)?['"]https?://[^'"]+['"]\s*,\s*(?:destfile\s*=\s*)?['"]([^'"]+)['"]`)
)

// fetchedCode names the network fetch whose text the code evaluates, ""
// when it evaluates nothing fetched.
func fetchedCode(code string) string {
	if m := codeRunURL.FindString(code); m != "" {
		return codeFetchFeed + m + "…)"
	}
	for _, m := range codeSaved.FindAllStringSubmatch(code, 4) {
		if i := strings.Index(code, "source("); i >= 0 && strings.Contains(code[i:], m[1]) {
			return codeFetchFeed + "download.file(…" + m[1] + ")"
		}
	}
	if !codeEval.MatchString(code) {
		return ""
	}
	if m := codeFetch.FindString(code); m != "" {
		return codeFetchFeed + m
	}
	return ""
}

// codeFetchFeed starts the Feed of an interpreter whose own code fetches
// what it runs, so IsFetcher counts it with curl and wget.
const codeFetchFeed = "the code's "

// fetchedFeed is the Feed of an interpreter running code: the fetch its
// code evaluates, "" for none.
func (n *normalizer) fetchedFeed(name, code string) string {
	f := fetchedCode(code)
	if f != "" {
		n.derive("the %s code runs what %s fetches", name, f)
	}
	return f
}
