package graph

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"salesplatform/domain"
)

// msgSurrogateEscape refuses a \uD800 to \uDFFF escape in a string literal:
// the parser reads each as U+FFFD, even the two halves of a pair.
const msgSurrogateEscape = `Surrogate escapes (\uD800 to \uDFFF) are not read in string literals: write the character itself or pass the text in a variable.`

// TextInputs refuses, before anything runs, an operation whose variables
// (at any depth) or string literals hold a value that is not text
// (domain.TextProblem: a NUL, bytes that are not UTF-8), BAD_USER_INPUT on
// the variable's path or at the literal. The transport has already refused
// JSON that is not UTF-8 or has an escaped lone surrogate
// (domain.JSONTextProblem), which a decoder reads as U+FFFD.
type TextInputs struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = TextInputs{}

// ExtensionName implements graphql.HandlerExtension.
func (TextInputs) ExtensionName() string { return "TextInputs" }

// Validate implements graphql.HandlerExtension.
func (TextInputs) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext implements graphql.OperationContextMutator.
func (TextInputs) MutateOperationContext(_ context.Context, rc *graphql.OperationContext) *gqlerror.Error {
	for name, v := range rc.Variables {
		if err := variableText(v, ast.Path{ast.PathName("variable"), ast.PathName(name)}); err != nil {
			return err
		}
	}
	if rc.Doc == nil {
		return nil
	}
	w := literalWalker{}
	for _, op := range rc.Doc.Operations {
		for _, vd := range op.VariableDefinitions {
			w.value(vd.DefaultValue)
			w.directives(vd.Directives)
		}
		w.directives(op.Directives)
		w.selections(op.SelectionSet)
	}
	for _, f := range rc.Doc.Fragments {
		w.directives(f.Directives)
		w.selections(f.SelectionSet)
	}
	return w.err
}

func variableText(v any, path ast.Path) *gqlerror.Error {
	switch x := v.(type) {
	case string:
		if msg := domain.TextProblem(x); msg != "" {
			return badText(msg, path, nil)
		}
	case []any:
		for i, e := range x {
			if err := variableText(e, append(path[:len(path):len(path)], ast.PathIndex(i))); err != nil {
				return err
			}
		}
	case map[string]any:
		for k, e := range x {
			p := append(path[:len(path):len(path)], ast.PathName(k))
			if msg := domain.TextProblem(k); msg != "" {
				return badText(msg, p, nil)
			}
			if err := variableText(e, p); err != nil {
				return err
			}
		}
	}
	return nil
}

func badText(msg string, path ast.Path, pos *ast.Position) *gqlerror.Error {
	err := &gqlerror.Error{Message: msg, Path: path, Extensions: map[string]any{"code": "BAD_USER_INPUT"}}
	if pos != nil {
		err.Locations = []gqlerror.Location{{Line: pos.Line, Column: pos.Column}}
	}
	return err
}

// literalWalker finds the first string literal of a document that is not
// text.
type literalWalker struct{ err *gqlerror.Error }

func (w *literalWalker) selections(set ast.SelectionSet) {
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			for _, a := range s.Arguments {
				w.value(a.Value)
			}
			w.directives(s.Directives)
			w.selections(s.SelectionSet)
		case *ast.InlineFragment:
			w.directives(s.Directives)
			w.selections(s.SelectionSet)
		case *ast.FragmentSpread:
			w.directives(s.Directives)
		}
	}
}

func (w *literalWalker) directives(ds ast.DirectiveList) {
	for _, d := range ds {
		for _, a := range d.Arguments {
			w.value(a.Value)
		}
	}
}

func (w *literalWalker) value(v *ast.Value) {
	if v == nil || w.err != nil {
		return
	}
	switch v.Kind {
	case ast.StringValue, ast.BlockValue:
		if msg := domain.TextProblem(v.Raw); msg != "" {
			w.err = badText(msg, nil, v.Position)
		} else if v.Kind == ast.StringValue && strings.ContainsRune(v.Raw, utf8.RuneError) && surrogateEscape(v.Position) {
			w.err = badText(msgSurrogateEscape, nil, v.Position)
		}
	case ast.ListValue, ast.ObjectValue:
		for _, c := range v.Children {
			w.value(c.Value)
		}
	}
}

// surrogateEscape tells whether the string literal at pos (in runes, its
// quotes included) has a \uD800 to \uDFFF escape. Only a literal that
// reads U+FFFD is looked at, so a document is read once per such literal.
func surrogateEscape(pos *ast.Position) bool {
	if pos == nil || pos.Src == nil {
		return false
	}
	var lit strings.Builder
	n := 0
	for _, r := range pos.Src.Input {
		if n >= pos.End {
			break
		}
		if n >= pos.Start {
			lit.WriteRune(r)
		}
		n++
	}
	s := lit.String()
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if s[i+1] == 'u' && i+3 < len(s) && strings.ContainsRune("dD", rune(s[i+2])) && strings.ContainsRune("89abcdefABCDEF", rune(s[i+3])) {
			return true
		}
		i++ // the escaped character, which may be a backslash
	}
	return false
}
