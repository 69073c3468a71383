// Package tally counts seabird sightings per species.
package tally

// Count adds n sightings of a species (for example "storm_petrel").
func Count(counts map[string]int, species string, n int) {
	counts[species] += n
}
