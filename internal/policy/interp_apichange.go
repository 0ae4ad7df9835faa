package policy

// interpAPIChangeRule: an interpreter one-liner's HTTP call that changes
// something on a remote API with a credential the code reads —
// requests.Session().patch(url+id, json=…) over a CSV, httpx.put,
// fetch(url, {method: 'POST', headers: {Authorization: …}}) — is the
// curl -X PATCH -H "Authorization: Bearer $T" that
// external.systems:api-mutating-call asks about, spelled as a library
// call. The destructive ones (DELETE, …/deactivate) are
// external.systems:api-call-in-code's (deny); searches, logins, model
// runs, a sandbox and a server on this machine or its network stay
// unflagged, as for curl.
func interpAPIChangeRule() Rule {
	return cmdRule("external.systems:api-change-in-code", Ask, "An interpreter one-liner's HTTP call that changes something on a remote API (POST, PUT, PATCH through requests, httpx, a Session, fetch or axios) with a credential the code reads (a token, an Authorization header, the environment): the same change as curl with that header, in a service others use", sdkRunners,
		func(e *Env, c *Cmd) string {
			for _, r := range interpAPICalls(c) {
				if r.method == "DELETE" || r.method == "" || apiHostLocal(r.urls) {
					continue
				}
				for _, u := range r.urls {
					if webhookURL(u) {
						return c.Name + " code posts a message to people through a webhook (" + u + ")"
					}
				}
				if r.creds == "" || apiReads(r) || inferenceCall(r) || rpcRead(r) || sandboxCall(r, c) || readPath(r) {
					continue
				}
				return c.Name + " code sends " + r.method + " " + r.urls[0] + " with " + r.creds + ": it changes something in a service others use"
			}
			return ""
		},
		[]string{
			`python3 -c "import os,requests; s=requests.Session(); s.auth=('api', os.environ['SHOP_KEY']); s.put('https://shop.example.com/admin/api/2024-01/products/42.json', json={'product':{'status':'draft'}})"`,
			`python -c "import httpx,os; httpx.post('https://api.tracker.example/v2/issues/bulk_update', headers={'Authorization':'Bearer '+os.environ['TRACKER_TOKEN']}, json={'ids':[1,2],'state':'closed'})"`,
			`node -e "fetch('https://api.cms.example/v1/entries/77',{method:'PATCH',headers:{Authorization:'Bearer '+process.env.CMS_TOKEN},body:JSON.stringify({published:false})})"`,
			`python3 -c "import requests,os; [requests.patch('https://crm.example.org/api/contacts/'+i, headers={'X-Api-Key':os.environ['CRM_KEY']}, json={'owner':'x'}) for i in open('ids.txt').read().split()]"`,
			`python3 -c "import os,httpx; c=httpx.Client(); c.put('https://hr.example.net/api/v1/employees/12', headers={'Authorization':'Bearer '+os.environ['HR_TOKEN']}, json={'title':'x'})"`,
			`python3 -c "import requests; requests.post('https://hooks.slack.com/services/T000/B000/XXXX', json={'text':'deploy started'})"`,
		},
		[]string{
			`python3 -c "import requests,os; print(requests.get('https://api.tracker.example/v2/issues', headers={'Authorization':'Bearer '+os.environ['TRACKER_TOKEN']}).json())"`,
			`python3 -c "import requests,os; requests.post('https://api.search.example/v1/search', headers={'Authorization':'Bearer '+os.environ['T']}, json={'q':'x'})"`,
			`python3 -c "import requests; requests.post('http://localhost:8000/api/items', json={'name':'a'})"`,
			`node -e "fetch('http://127.0.0.1:3000/api/users/1',{method:'PATCH',headers:{Authorization:'Bearer '+process.env.T}})"`,
			`python3 -c "import requests; r=requests.post('https://httpbin.org/post', data={'a':1}); print(r.status_code)"`,
			`python3 -c "import requests,os; requests.post('https://api.openai.com/v1/chat/completions', headers={'Authorization':'Bearer '+os.environ['OPENAI_API_KEY']}, json={'model':'gpt-4o-mini','messages':[]})"`,
		})
}
