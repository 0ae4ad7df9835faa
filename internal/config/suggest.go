package config

import "strings"

// closest returns the candidate a mistyped name most likely meant, or "".
// A candidate qualifies when it is within a few edits of the name (typos:
// retention_day, context.treshold) or ends in the same last part (a key
// written in the wrong table: threshold for context.threshold).
func closest(name string, candidates []string) string {
	best, bestScore := "", max(2, len(name)/3)+1
	for _, c := range candidates {
		score := EditDistance(name, c)
		if lastPart(name) == lastPart(c) {
			score = min(score, 1)
		}
		if score < bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

func lastPart(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

// EditDistance is the Levenshtein distance between a and b, in bytes (keys
// and command names are ASCII). The CLI's "did you mean" uses it too.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
