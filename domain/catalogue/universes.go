package catalogue

import (
	"sort"

	"salesplatform/domain"
)

// Universe is a node of the catalogue's universe tree (three levels are
// used): network voucher boxes and voucher prototypes are filed under
// universes.
type Universe struct {
	ID       int64
	ParentID *int64 // nil for a root
	Name     domain.Localized
	Order    *int // position among its siblings; nil sorts last
}

// UniverseNode is a universe with the sub-universes shown below it.
type UniverseNode struct {
	*Universe
	SubUniverses []*UniverseNode // empty at the leaves
}

// Theme is a theme voucher prototypes are tagged with.
type Theme struct {
	ID   int64
	Name domain.Localized
}

// UniverseTree arranges universes into trees. A universe whose parent is
// not among them is a root. Siblings (and roots) are ordered by Order, those
// without one last, then by id. Stores return a set closed under parents
// (every linked universe with its ancestors), so the roots are true roots.
func UniverseTree(universes []*Universe) []*UniverseNode {
	byID := make(map[int64]*UniverseNode, len(universes))
	for _, u := range universes {
		byID[u.ID] = &UniverseNode{Universe: u, SubUniverses: []*UniverseNode{}}
	}
	roots := []*UniverseNode{}
	for _, u := range universes {
		n := byID[u.ID]
		if u.ParentID != nil && *u.ParentID != u.ID {
			if parent, ok := byID[*u.ParentID]; ok {
				parent.SubUniverses = append(parent.SubUniverses, n)
				continue
			}
		}
		roots = append(roots, n)
	}
	for _, n := range byID {
		sortUniverses(n.SubUniverses)
	}
	sortUniverses(roots)
	return roots
}

func sortUniverses(nodes []*UniverseNode) {
	sort.Slice(nodes, func(i, j int) bool {
		a, b := nodes[i].Universe, nodes[j].Universe
		switch {
		case a.Order != nil && b.Order != nil && *a.Order != *b.Order:
			return *a.Order < *b.Order
		case (a.Order == nil) != (b.Order == nil):
			return a.Order != nil
		}
		return a.ID < b.ID
	})
}
