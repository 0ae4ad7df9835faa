package policy

import "strings"

// Interpreter code that publishes through a client's method, whatever the
// SDK (d4, #30): an image pushed to a registry
// (docker.from_env().images.push('ghcr.io/x/y')), a package, a message or
// a release published (client.publish(…), .publish_release(…)) is the
// CLI's docker push or npm publish spelled as a library call: it asks.
// A JavaScript array's push is no registry push: the pushed value must be
// an image reference (host/name) or the call an image collection's.

// codePublishCall: a publishing method called with an argument.
var codePublishCall = re(`\.getImage\([^)]*\)\.push\(|\.images?\.push\(\s*\S|\.push\(\s*['"][\w.-]+\.[a-z]{2,}(?::\d+)?/[\w./-]+['"]|\.push_image\(|\.(?:publish|publish_\w+|publish[A-Z]\w*|release_\w+)\(\s*[^)\s]`)

// hubPublishCall: a model or data set pushed to a hub others download
// from (datasets' and transformers' .push_to_hub('org/name'),
// huggingface_hub's upload_folder / create_commit): the library's own
// publish verb, no client object needed on the line.
var hubPublishCall = re(`\.push_to_hub\(\s*[^)\s]|\bupload_(?:folder|file|large_folder)\(\s*[^)\s]|\.pushToHub\(\s*[^)\s]`)

func interpPublishRule() Rule {
	return cmdRule("core.interp:client-publish-call", Ask, "Interpreter code that publishes through a client's method, whatever the SDK (docker.from_env().images.push('ghcr.io/x/y'), client.publish(…), gh.publish_release(…)): an image, package, message or release goes out to others as docker push or npm publish would; a client on this machine, in memory or a test double is not flagged", append(sdkRunners, "perl"),
		func(e *Env, c *Cmd) string {
			text := runtimeText(c)
			if text == "" {
				return ""
			}
			if m := hubPublishCall.FindString(text); m != "" {
				return c.Name + " code publishes to a hub others download from (" + strings.TrimSpace(m) + "…)"
			}
			m := codePublishCall.FindString(text)
			if m == "" || !codeClient.MatchString(text) || codeLocalClient.MatchString(text) {
				return ""
			}
			return c.Name + " code publishes through a client (" + strings.TrimSpace(m) + "…)"
		},
		[]string{`python3 -c "import docker; print(docker.from_env().images.push('ghcr.io/acme/api', tag='1.2'))"`,
			`node -e "const {PubSub}=require('@google-cloud/pubsub'); new PubSub().topic('orders').publishMessage({data: Buffer.from('x')})"`,
			`ruby -e 'require "google/cloud/pubsub"; Google::Cloud::PubSub.new.topic("orders").publish("replay")'`},
		[]string{`node -e "const a=new Array(); a.push(1); console.log(a)"`,
			`python3 -c "import docker; print(docker.from_env().images.list())"`,
			`python3 -c "import docker; docker.DockerClient(base_url='unix://var/run/docker.sock'); print('ok')"`})
}
