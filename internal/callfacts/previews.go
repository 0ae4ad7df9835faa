package callfacts

import (
	_ "embed"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// previewsText lists deploys that reach a preview, not production
// (netlify deploy without --prod, wrangler pages deploy --branch
// preview-…): the deploy and ship rules leave them alone.
//
//go:embed previews.txt
var previewsText string

var previewRules = sync.OnceValue(func() map[string][]wordRule { return parseWords(datatable.Lines("previews.txt", previewsText), false) })

// PreviewDeploy reports whether c deploys to a preview, a draft or a
// development device rather than to production (previews.txt).
func (c *Cmd) PreviewDeploy() bool {
	return matchWords(previewRules()[c.Name], c) != nil
}
