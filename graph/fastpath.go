package graph

// The fast path of the catalogue's lists. gqlgen's executor resolves every
// field on its own: a field context and the field middleware for each
// field, the object's fields collected again for each object, a goroutine
// for each element of a list and for each resolver field. For the
// catalogue's boxes with their offers, partners and labels that was most
// of a request's CPU (docs/PERFORMANCE.md).
//
// A root field the fast path knows (fastRoots) is planned first: the fields
// of each selection are collected once, by gqlgen's own CollectFields, and
// checked against the fields the fast path can write (fastTypes). When every
// field is one of them, the field is answered in one pass: the same
// resolvers and conversions, called in turn (the read-ahead has loaded what
// the nested resolvers read, so none of them waits), and the answer
// written with gqlgen's scalar marshalers, so that its bytes are those
// gqlgen writes. Anything else (a field it has no writer for, a deferred
// fragment, an error anywhere, a null where the schema allows none, a
// request that ended) leaves the field to gqlgen, which answers it as it
// always does; the fast path writes nothing to the response before it has
// succeeded. TestGraphFastPathAnswersAsGqlgen compares the two.

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// fastPath answers the root fields it knows; the others, and those it
// cannot answer, go to next.
type fastPath struct {
	schema *executableSchema
}

// fastRoot answers a root field whose plan is n.
type fastRoot func(x *fastExec, n *planField)

// rootField is the fast path's root field middleware.
func (p fastPath) rootField(ctx context.Context, next graphql.RootResolver) (m graphql.Marshaler) {
	rfc := graphql.GetRootFieldContext(ctx)
	oc := graphql.GetOperationContext(ctx)
	if rfc == nil || oc.Operation.Operation != ast.Query {
		return next(ctx)
	}
	// This runs outside gqlgen's recover, on a goroutine of its own: a
	// panic is logged (the recover function) and the field left to gqlgen.
	defer func() {
		if r := recover(); r != nil {
			_ = oc.Recover(ctx, r)
			m = next(ctx)
		}
	}()
	// gqlgen names the field, not its type, in rfc.Object.
	root, ok := fastRoots[parsedSchema.Query.Name+"."+rfc.Field.Name]
	if !ok {
		return next(ctx)
	}
	x := &fastExec{ctx: ctx, oc: oc, ec: newExecutionContext(oc, p.schema, nil)}
	n, ok := x.plan(rfc.Field, parsedSchema.Query.Name)
	if !ok {
		return next(ctx)
	}
	root(x, n)
	if x.err != nil || ctx.Err() != nil {
		return next(ctx)
	}
	out := x.buf.Bytes()
	return graphql.WriterFunc(func(w io.Writer) { _, _ = w.Write(out) })
}

// fastExec is one root field's run of the fast path.
type fastExec struct {
	ctx context.Context
	oc  *graphql.OperationContext
	ec  *executionContext // for gqlgen's coercion of arguments
	buf bytes.Buffer
	err error // the first failure: the field is then left to gqlgen
}

// errFastPath marks a value the fast path does not write (a null where the
// schema allows none); the field is left to gqlgen, which reports it.
var errFastPath = errors.New("graph: not answered by the fast path")

// fail records the first failure; writing goes on but is thrown away.
func (x *fastExec) fail(err error) {
	if x.err == nil {
		x.err = err
	}
}

// planField is a field of a plan: its writer and, for a field of an object
// type, the plan of its selection.
type planField struct {
	field  graphql.CollectedField
	write  func(x *fastExec, n *planField, parent any)
	fields []*planField
}

// fastField writes one field of an object type from the parent's value;
// check, when set, tells whether the fast path can answer this use of it
// (its arguments).
type fastField struct {
	write func(x *fastExec, n *planField, parent any)
	check func(x *fastExec, f graphql.CollectedField) bool
}

// on adapts a writer of T's field to the plan's untyped parents.
func on[T any](write func(x *fastExec, n *planField, v T)) fastField {
	return fastField{write: func(x *fastExec, n *planField, parent any) { write(x, n, parent.(T)) }}
}

// plan plans field f of the object type in: its writer (for a root field,
// none: fastRoots writes it) and the plans of its selection's fields. False
// when some field has no writer or cannot be answered here.
func (x *fastExec) plan(f graphql.CollectedField, in string) (*planField, bool) {
	n := &planField{field: f}
	if f.IsDeferred() {
		return nil, false
	}
	if f.Name == "__typename" {
		n.write = func(x *fastExec, _ *planField, _ any) { x.scalar(n, graphql.MarshalString(in)) }
		return n, true
	}
	if _, root := fastRoots[in+"."+f.Name]; !root {
		ff, ok := fastTypes[in][f.Name]
		if !ok || (ff.check != nil && !ff.check(x, f)) {
			return nil, false
		}
		n.write = ff.write
	}
	typ := f.Definition.Type.Name()
	if kind := parsedSchema.Types[typ].Kind; kind != ast.Object {
		return n, kind == ast.Scalar || kind == ast.Enum
	}
	if _, known := fastTypes[typ]; !known {
		return nil, false
	}
	for _, child := range graphql.CollectFields(x.oc, f.Selections, satisfies(typ)) {
		c, ok := x.plan(child, typ)
		if !ok {
			return nil, false
		}
		n.fields = append(n.fields, c)
	}
	return n, true
}

// object writes v, the value of an object-typed field n: its fields, or
// null (when the schema allows it).
func object[T any](x *fastExec, n *planField, v *T) {
	if v == nil {
		x.null(n)
		return
	}
	x.buf.WriteByte('{')
	for i, c := range n.fields {
		if i > 0 {
			x.buf.WriteByte(',')
		}
		graphql.MarshalString(c.field.Alias).MarshalGQL(&x.buf)
		x.buf.WriteByte(':')
		c.write(x, c, v)
	}
	x.buf.WriteByte('}')
}

// list writes items, the value of a field n of a list of objects, none of
// them null.
func list[T any](x *fastExec, n *planField, items []*T) {
	x.buf.WriteByte('[')
	for i, v := range items {
		if i > 0 {
			x.buf.WriteByte(',')
		}
		if v == nil {
			x.fail(errFastPath)
			return
		}
		if err := x.ctx.Err(); err != nil {
			x.fail(err)
			return
		}
		object(x, n, v)
	}
	x.buf.WriteByte(']')
}

// scalar writes m, the value of field n.
func (x *fastExec) scalar(n *planField, m graphql.Marshaler) {
	if m == graphql.Null {
		x.null(n)
		return
	}
	m.MarshalGQL(&x.buf)
}

// scalars writes a list of scalars, none of them null.
func scalars[T any](x *fastExec, n *planField, items []T, marshal func(T) graphql.Marshaler) {
	x.buf.WriteByte('[')
	for i, v := range items {
		if i > 0 {
			x.buf.WriteByte(',')
		}
		m := marshal(v)
		if m == graphql.Null {
			x.fail(errFastPath)
			return
		}
		m.MarshalGQL(&x.buf)
	}
	x.buf.WriteByte(']')
}

// null writes null for field n, or fails when the schema allows no null.
func (x *fastExec) null(n *planField) {
	if n.field.Definition.Type.NonNull {
		x.fail(errFastPath)
		return
	}
	x.buf.WriteString("null")
}

// resolverContext is the context a resolver of field n is called with, as
// gqlgen gives it (the field's context, its arguments).
func (x *fastExec) resolverContext(n *planField, object string, args map[string]any) context.Context {
	return graphql.WithFieldContext(x.ctx, &graphql.FieldContext{
		Object: object, Field: n.field, Args: args, IsMethod: true, IsResolver: true,
	})
}
