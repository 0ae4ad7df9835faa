package policy

import "strings"

// A variable whose name ends in _KEY holds a key (SUPABASE_SERVICE_ROLE_KEY,
// OPENAI_KEY, STRIPE_KEY, AZURE_STORAGE_ACCOUNT_KEY) unless the word
// before says it is public or not a credential at all: a publishable or
// anonymous key that ships in a web page, a database's or a cache's key
// name, a key's id or alias. Bundlers' public prefixes (NEXT_PUBLIC_,
// VITE_, EXPO_PUBLIC_) put the value in every page served.

// nonSecretKeyWords are the words before _KEY that say it is no secret.
var nonSecretKeyWords = map[string]bool{"PUBLIC": true, "PUB": true, "PUBLISHABLE": true, "ANON": true, "SITE": true,
	"SORT": true, "PARTITION": true, "CACHE": true, "PRIMARY": true, "FOREIGN": true, "HASH": true, "ROUTING": true,
	"LOOKUP": true, "OBJECT": true, "BUCKET": true, "REDIS": true, "KMS": true, "GPG": true, "PGP": true, "IDEMPOTENCY": true,
	"RANGE": true, "SHARD": true, "QUEUE": true, "LOCK": true, "DEDUP": true, "MAP": true, "RESOURCE": true,
	"SEARCH": true, "SIDE": true, "FLAG": true, "I18N": true, "LOCALE": true, "TRANSLATION": true, "PROJECT": true, "ISSUE": true}

// publicEnvPrefixes put a variable into the client bundle.
var publicEnvPrefixes = []string{"NEXT_PUBLIC_", "VITE_", "EXPO_PUBLIC_", "REACT_APP_", "NUXT_PUBLIC_", "PUBLIC_", "GATSBY_"}

// keyNamedSecret: u (upper case) ends in _KEY or is a service-role
// secret by name, and nothing in it says the key is public.
func keyNamedSecret(u string) bool {
	if strings.Contains(u, "SERVICE_ROLE") {
		return true // Supabase's service role: the key that bypasses row-level security
	}
	if u == "PAT" || strings.HasSuffix(u, "_PAT") {
		return true // a personal access token: AZDO_PAT, GITHUB_PAT
	}
	if (strings.HasSuffix(u, "CONNECTION_STRING") || strings.HasSuffix(u, "_CONN_STR")) && !strings.Contains(u, "INSIGHTS") {
		return true // Azure storage, Service Bus, Event Hubs, Cosmos DB: the account key is in the string (Application Insights' holds none)
	}
	rest, ok := strings.CutSuffix(u, "_KEY")
	if !ok || rest == "" {
		return false
	}
	for _, p := range publicEnvPrefixes {
		if strings.HasPrefix(u, p) {
			return false
		}
	}
	words := strings.Split(rest, "_")
	return !nonSecretKeyWords[words[len(words)-1]]
}

// envVendorWord: one alternative of an environment filter's pattern is
// the name of a service whose credentials live in variables named for
// it (env | grep -i supabase, printenv | grep AWS, env | grep '^STRIPE_'):
// the words of secrethosts.txt and serviceAliases, three letters or
// more, whole, so NODE or PATH do not count.
func envVendorWord(a string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(a), func(r rune) bool { return strings.ContainsRune("|()^$'\"\\ ", r) }) {
		w = strings.Trim(w, ".*_-=")
		if len(w) < 3 || genericWords[w] {
			continue
		}
		if _, ok := secretHosts()[w]; ok {
			return true
		}
		if _, ok := serviceAliases[w]; ok {
			return true
		}
	}
	return false
}
