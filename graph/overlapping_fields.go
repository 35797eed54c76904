package graph

import (
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// maxMergeSteps bounds the work of overlappingFieldsRule on one document
// (fields collected, pairs and values compared): a million, some
// milliseconds, a hundred times what GraphiQL's introspection query takes.
// A document past it is refused.
const maxMergeSteps = 1_000_000

// overlappingFieldsRule is the spec's Field Selection Merging
// (FieldsInSetCanMerge; gqlparser's OverlappingFieldsCanBeMerged): the
// fields a selection set answers under one response name must be the same
// field with the same arguments, unless their parents are different object
// types, and return the same shape. gqlparser's compares every pair of
// fields of a name (5,000 __typename, 53 KB of query: 4.8 s) and walks
// fragments again at each spread (fragments that each spread the next one
// twice: 2^levels). This one compares each field of a name with the first
// (an equivalence: same name, arguments and shape), merges the selections
// of the fields of a name into one collection where each fragment is
// counted once, as the executor's CollectFields does, and checks each
// selection set of the document once. Its work is bounded by
// maxMergeSteps.
//
// It differs from gqlparser's on two points, both the spec's: arguments
// compare by their whole value (gqlparser compares lists and objects by
// kind only), and a leaf and a composite type conflict (gqlparser lets
// them through when their parents are different objects).
var overlappingFieldsRule = core.Rule{
	Name: rules.OverlappingFieldsCanBeMergedRule.Name,
	RuleFunc: func(observers *core.Events, addError core.AddErrFunc) {
		newMerger(addError).observe(observers)
	},
}

func newMerger(addError core.AddErrFunc) *merger {
	return &merger{addError: addError, checked: map[*ast.Selection]bool{}, reported: map[string]bool{}}
}

// observe checks the selection sets of the operations, of the fields and
// of the fragments nothing spreads, as the walk meets them. Each collects
// its inline fragments and the fragments it spreads, so their fields are
// checked there and not again on their own (nested inline fragments or a
// chain of fragments would be collected again at each level).
func (m *merger) observe(observers *core.Events) {
	observers.OnOperation(func(w *core.Walker, op *ast.OperationDefinition) { m.within(w, op.SelectionSet) })
	observers.OnField(func(w *core.Walker, f *ast.Field) { m.within(w, f.SelectionSet) })
	observers.OnFragment(func(w *core.Walker, f *ast.FragmentDefinition) {
		if m.learn(w.Document); !m.spread[f.Name] {
			m.within(w, f.SelectionSet)
		}
	})
}

// merger checks the selection sets of one document.
type merger struct {
	schema   *ast.Schema
	addError core.AddErrFunc
	checked  map[*ast.Selection]bool // selection sets checked, by their first selection
	reported map[string]bool         // errors reported, by message and position
	steps    int
	over     bool // maxMergeSteps reached: reported, and nothing more is checked
	// spread holds the fragments the document spreads; cyclic, that they
	// spread each other in a cycle (NoFragmentCycles refuses it, and
	// merging would not end). Both are learnt once.
	spread map[string]bool
	cyclic bool
}

// learn reads, once, which fragments the document spreads and whether in
// a cycle.
func (m *merger) learn(doc *ast.QueryDocument) {
	if m.spread != nil {
		return
	}
	m.spread = map[string]bool{}
	var spreads func(set ast.SelectionSet)
	spreads = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				spreads(s.SelectionSet)
			case *ast.InlineFragment:
				spreads(s.SelectionSet)
			case *ast.FragmentSpread:
				m.spread[s.Name] = true
			}
		}
	}
	for _, op := range doc.Operations {
		spreads(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		spreads(f.SelectionSet)
	}
	m.cyclic = hasFragmentCycle(doc)
}

// responseGroup is the fields of one response name in a collection.
type responseGroup struct {
	name   string
	fields []*ast.Field
}

// conflict is why the fields of a response name cannot merge: reason, or
// the conflicts of their subfields.
type conflict struct {
	name   string
	reason string
	sub    []*conflict
	at     *ast.Position
}

func (c *conflict) why(b *strings.Builder) {
	if len(c.sub) == 0 {
		b.WriteString(c.reason)
		return
	}
	for i, s := range c.sub {
		if i > 0 {
			b.WriteString(" and ")
		}
		fmt.Fprintf(b, `subfields "%s" conflict because `, s.name)
		s.why(b)
	}
}

// tick counts a step; false once maxMergeSteps is reached.
func (m *merger) tick() bool {
	if m.over {
		return false
	}
	m.steps++
	if m.steps > maxMergeSteps {
		m.over = true
		m.addError(core.Message("the operation has too many fields to check that they merge"))
		return false
	}
	return true
}

// within checks one selection set of the document, once.
func (m *merger) within(w *core.Walker, set ast.SelectionSet) {
	m.learn(w.Document)
	schema := w.Schema
	if len(set) == 0 || m.over || m.cyclic || m.checked[&set[0]] {
		return
	}
	m.schema = schema
	m.checked[&set[0]] = true
	var groups []*responseGroup
	m.collect(set, &groups, map[string]int{}, map[string]bool{})
	for _, g := range groups {
		if c := m.group(g, false); c != nil {
			var b strings.Builder
			c.why(&b)
			msg := fmt.Sprintf(`Fields "%s" conflict because %s. Use different aliases on the fields to fetch both if this was intentional.`, c.name, b.String())
			key := msg
			if c.at != nil {
				key += fmt.Sprintf("@%d:%d", c.at.Line, c.at.Column)
			}
			if !m.reported[key] {
				m.reported[key] = true
				m.addError(core.Message("%s", msg), core.At(c.at))
			}
		}
	}
}

// collect adds the fields of set to groups, by response name in order,
// with its inline fragments and each named fragment once (visited).
func (m *merger) collect(set ast.SelectionSet, groups *[]*responseGroup, index map[string]int, visited map[string]bool) {
	for _, sel := range set {
		if !m.tick() {
			return
		}
		switch s := sel.(type) {
		case *ast.Field:
			if s.ObjectDefinition == nil {
				continue
			}
			name := s.Alias
			if name == "" {
				name = s.Name
			}
			i, ok := index[name]
			if !ok {
				i = len(*groups)
				index[name] = i
				*groups = append(*groups, &responseGroup{name: name})
			}
			(*groups)[i].fields = append((*groups)[i].fields, s)
		case *ast.InlineFragment:
			m.collect(s.SelectionSet, groups, index, visited)
		case *ast.FragmentSpread:
			if visited[s.Name] || s.Definition == nil {
				continue
			}
			visited[s.Name] = true
			m.collect(s.Definition.SelectionSet, groups, index, visited)
		}
	}
}

// group checks the fields of one response name. exclusive: their parents
// are known to be different objects, so only their shapes must agree.
func (m *merger) group(g *responseGroup, exclusive bool) *conflict {
	if len(g.fields) < 2 {
		return nil
	}
	var buckets [][]*ast.Field
	if !exclusive {
		buckets = m.buckets(g.fields)
		for _, bucket := range buckets {
			a := bucket[0]
			for _, b := range bucket[1:] {
				if !m.tick() {
					return nil
				}
				if a.Name != b.Name {
					return &conflict{name: g.name, at: b.Position, reason: fmt.Sprintf(`"%s" and "%s" are different fields`, a.Name, b.Name)}
				}
				if !m.sameArguments(a.Arguments, b.Arguments) {
					return &conflict{name: g.name, at: b.Position, reason: "they have differing arguments"}
				}
			}
		}
	}
	first := g.fields[0]
	for _, f := range g.fields[1:] {
		if !m.tick() {
			return nil
		}
		if first.Definition != nil && f.Definition != nil && m.typesConflict(first.Definition.Type, f.Definition.Type) {
			return &conflict{name: g.name, at: f.Position, reason: fmt.Sprintf(`they return conflicting types "%s" and "%s"`,
				first.Definition.Type.String(), f.Definition.Type.String())}
		}
	}
	if exclusive || len(buckets) > 1 { // the shapes of their selections
		if c := m.merged(g.name, g.fields, true); c != nil || exclusive {
			return c
		}
	}
	for _, bucket := range buckets { // and, where parents may be one object, all of them
		if c := m.merged(g.name, bucket, false); c != nil {
			return c
		}
	}
	return nil
}

// merged checks the selections of fields as one set, each fragment
// counted once.
func (m *merger) merged(name string, fields []*ast.Field, exclusive bool) *conflict {
	var groups []*responseGroup
	index, visited := map[string]int{}, map[string]bool{}
	for _, f := range fields {
		m.collect(f.SelectionSet, &groups, index, visited)
	}
	var subs []*conflict
	for _, g := range groups {
		if c := m.group(g, exclusive); c != nil {
			subs = append(subs, c)
		}
	}
	if len(subs) == 0 {
		return nil
	}
	return &conflict{name: name, sub: subs, at: fields[len(fields)-1].Position}
}

// buckets splits fields by parent: the fields of each object type, with
// those of interfaces and unions (which may be any of them) in every
// bucket. Fields of different buckets have parents that are different
// objects: they never both answer.
func (m *merger) buckets(fields []*ast.Field) [][]*ast.Field {
	var objects [][]*ast.Field
	byType := map[string]int{}
	var abstract []*ast.Field
	for _, f := range fields {
		if f.ObjectDefinition.Kind != ast.Object || f.Definition == nil {
			abstract = append(abstract, f)
			continue
		}
		i, ok := byType[f.ObjectDefinition.Name]
		if !ok {
			i = len(objects)
			byType[f.ObjectDefinition.Name] = i
			objects = append(objects, nil)
		}
		objects[i] = append(objects[i], f)
	}
	if len(objects) == 0 {
		return [][]*ast.Field{abstract}
	}
	for i := range objects {
		objects[i] = append(objects[i], abstract...)
	}
	return objects
}

// typesConflict tells whether two fields' types differ in shape: in
// lists or non-null, or as different leaf types, or a leaf and a
// composite.
func (m *merger) typesConflict(t1, t2 *ast.Type) bool {
	for {
		if t1.NonNull != t2.NonNull || (t1.Elem == nil) != (t2.Elem == nil) {
			return true
		}
		if t1.Elem == nil {
			break
		}
		t1, t2 = t1.Elem, t2.Elem
	}
	d1, d2 := m.schema.Types[t1.NamedType], m.schema.Types[t2.NamedType]
	if d1 == nil || d2 == nil {
		return false
	}
	leaf1 := d1.Kind == ast.Scalar || d1.Kind == ast.Enum
	leaf2 := d2.Kind == ast.Scalar || d2.Kind == ast.Enum
	return (leaf1 || leaf2) && d1.Name != d2.Name
}

func (m *merger) sameArguments(a, b ast.ArgumentList) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		y := b.ForName(x.Name)
		if y == nil || !m.sameValue(x.Value, y.Value) {
			return false
		}
	}
	return true
}

func (m *merger) sameValue(a, b *ast.Value) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !m.tick() {
		return true
	}
	if a.Kind != b.Kind || a.Raw != b.Raw || len(a.Children) != len(b.Children) {
		return false
	}
	for i, c := range a.Children {
		other := b.Children[i]
		if a.Kind == ast.ObjectValue { // fields in any order
			other = nil
			for _, o := range b.Children {
				if o.Name == c.Name {
					other = o
					break
				}
			}
			if other == nil {
				return false
			}
		}
		if c.Name != other.Name || !m.sameValue(c.Value, other.Value) {
			return false
		}
	}
	return true
}

// hasFragmentCycle tells whether fragments of doc spread each other in a
// cycle, in time linear in doc.
func hasFragmentCycle(doc *ast.QueryDocument) bool {
	const (
		unseen = iota
		walking
		done
	)
	state := map[string]int{}
	var visit func(name string) bool
	var inSet func(set ast.SelectionSet) bool
	inSet = func(set ast.SelectionSet) bool {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				if inSet(s.SelectionSet) {
					return true
				}
			case *ast.InlineFragment:
				if inSet(s.SelectionSet) {
					return true
				}
			case *ast.FragmentSpread:
				if visit(s.Name) {
					return true
				}
			}
		}
		return false
	}
	visit = func(name string) bool {
		switch state[name] {
		case walking:
			return true
		case done:
			return false
		}
		state[name] = walking
		if f := doc.Fragments.ForName(name); f != nil && inSet(f.SelectionSet) {
			return true
		}
		state[name] = done
		return false
	}
	for _, f := range doc.Fragments {
		if visit(f.Name) {
			return true
		}
	}
	return false
}
