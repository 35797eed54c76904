package graph

// The typed errors of the payloads (CatalogueError…): the domain's field
// errors as the mutation's input was sent.

import (
	"context"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"salesplatform/domain"
)

// errorCode is the area enum value of a domain validation code, its upper
// case: "max_length" is MAX_LENGTH. schema_test checks that each area's
// enum holds every code the area's services can produce.
func errorCode[E ~string](code string) E { return E(strings.ToUpper(code)) }

// inputPath maps the path of a domain field error, in the names the
// service read (REST's snake_case, or the input's own), to the input as
// the client sent it: the argument, then input field names and list
// indexes. A name matches the input field at its place whose name is the
// same once case and underscores are ignored, or that name with an Id or
// Ids suffix (the REST "universe" is the input's "universeId"). A name
// that matches nothing ends the path at the nearest value holding the
// fault; the end-to-end tests check that every path they meet resolves.
func inputPath(ctx context.Context, path []string) []string {
	mutation := rootField(ctx)
	if mutation == nil || mutation.Field.Definition == nil {
		return path
	}
	args := mutation.Field.Definition.Arguments
	arg := matchArgument(args, path)
	if arg == nil {
		return path
	}
	out := []string{arg.Name}
	if len(path) > 0 && arg.Name == matchName(path[0], []string{arg.Name}) {
		path = path[1:]
	}
	typ := arg.Type
	for _, seg := range path {
		if typ.Elem != nil { // a list: seg must be an index
			if _, err := strconv.Atoi(seg); err != nil {
				break
			}
			out, typ = append(out, seg), typ.Elem
			continue
		}
		def := parsedSchema.Types[typ.NamedType]
		if def == nil || def.Kind != ast.InputObject {
			break
		}
		names := make([]string, len(def.Fields))
		for i, f := range def.Fields {
			names[i] = f.Name
		}
		name := matchName(seg, names)
		if name == "" {
			break
		}
		out, typ = append(out, name), def.Fields.ForName(name).Type
	}
	return out
}

// rootField is the context of the operation's root field (the mutation)
// that ctx's field lies under: the outermost context of a field (list
// items have contexts of their own, without one).
func rootField(ctx context.Context) *graphql.FieldContext {
	var root *graphql.FieldContext
	for fc := graphql.GetFieldContext(ctx); fc != nil; fc = fc.Parent {
		if fc.Field.Field != nil {
			root = fc
		}
	}
	return root
}

// matchArgument is the argument a path starts in: the one its first name
// matches, else the mutation's input object.
func matchArgument(args ast.ArgumentDefinitionList, path []string) *ast.ArgumentDefinition {
	if len(path) > 0 {
		for _, a := range args {
			if matchName(path[0], []string{a.Name}) == a.Name {
				return a
			}
		}
	}
	for _, a := range args {
		if def := parsedSchema.Types[a.Type.NamedType]; def != nil && def.Kind == ast.InputObject {
			return a
		}
	}
	return nil
}

// matchName is the name of names that seg names (see inputPath), or "".
// seg is tried whole, then, for a REST name of several words, without a
// trailing language code ("name_fr" is the texts of name) and by its
// runs of words, longest first ("voucher_prototypes" is prototypeIds);
// each form as it is, with an Id or Ids suffix, and singular with Ids
// ("images" is imageIds).
func matchName(seg string, names []string) string {
	for _, form := range nameForms(seg) {
		for _, key := range []string{form, form + "id", form + "ids", strings.TrimSuffix(form, "s") + "ids"} {
			for _, n := range names {
				if fold(n) == key {
					return n
				}
			}
		}
	}
	return ""
}

// nameForms are the folded forms matchName tries for seg, in order.
func nameForms(seg string) []string {
	words := strings.Split(strings.ToLower(seg), "_")
	if n := len(words); n > 1 && domain.IsLanguage(words[n-1]) {
		words = words[:n-1]
	}
	forms := []string{fold(seg)}
	for size := len(words); size >= 1; size-- {
		for start := 0; start+size <= len(words); start++ {
			forms = append(forms, strings.Join(words[start:start+size], ""))
		}
	}
	return forms
}

// fold is a name without case and underscores.
func fold(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
