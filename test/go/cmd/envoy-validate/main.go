// Command envoy-validate checks an Envoy bootstrap YAML the way Envoy's
// config loader would, without Envoy: the document must decode strictly
// (no unknown fields, right types, every typed_config @type known) into
// envoy.config.bootstrap.v3.Bootstrap, and pass the protoc-gen-validate rules
// of the Bootstrap and of every Any nested anywhere inside it.
//
//	envoy-validate FILE.yaml [FILE.yaml...]
//
// Exit 0 when every file is valid, 1 with the errors on stderr otherwise.
package main

import (
	"errors"
	"fmt"
	"os"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"
	"sigs.k8s.io/yaml"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: envoy-validate FILE.yaml [FILE.yaml...]")
		os.Exit(2)
	}
	failed := false
	for _, path := range os.Args[1:] {
		if errs := validateFile(path); len(errs) > 0 {
			failed = true
			for _, err := range errs {
				fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
			}
		} else {
			fmt.Printf("%s: ok\n", path)
		}
	}
	if failed {
		os.Exit(1)
	}
}

func validateFile(path string) []error {
	data, err := os.ReadFile(path)
	if err != nil {
		return []error{err}
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return []error{fmt.Errorf("yaml: %w", err)}
	}
	var bootstrap bootstrapv3.Bootstrap
	// DiscardUnknown=false is the point: Envoy rejects unknown fields too.
	if err := (protojson.UnmarshalOptions{DiscardUnknown: false}).Unmarshal(js, &bootstrap); err != nil {
		return []error{fmt.Errorf("decode: %w", err)}
	}
	v := &validator{}
	if err := bootstrap.ValidateAll(); err != nil {
		v.errs = append(v.errs, flatten(err)...)
	}
	v.walk(bootstrap.ProtoReflect(), "bootstrap")
	return v.errs
}

// flatten turns a pgv MultiError into its parts so each prints on its own line.
func flatten(err error) []error {
	var multi interface{ AllErrors() []error }
	if errors.As(err, &multi) {
		return multi.AllErrors()
	}
	return []error{err}
}

// validator finds every google.protobuf.Any in a decoded config. Generated
// validators stop at an Any, so each one is unpacked and validated as its own
// type, then searched for further Anys (an HCM inside a listener holds the
// http_filters' typed_configs, and so on).
type validator struct {
	errs []error
}

func (v *validator) walk(m protoreflect.Message, path string) {
	m.Range(func(fd protoreflect.FieldDescriptor, val protoreflect.Value) bool {
		name := path + "." + string(fd.Name())
		switch {
		case fd.IsList() && fd.Message() != nil:
			for i := 0; i < val.List().Len(); i++ {
				v.visit(val.List().Get(i).Message(), fmt.Sprintf("%s[%d]", name, i))
			}
		case fd.IsMap() && fd.MapValue().Message() != nil:
			val.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				v.visit(mv.Message(), fmt.Sprintf("%s[%s]", name, k.String()))
				return true
			})
		case !fd.IsList() && !fd.IsMap() && fd.Message() != nil:
			v.visit(val.Message(), name)
		}
		return true
	})
}

func (v *validator) visit(m protoreflect.Message, path string) {
	a, isAny := m.Interface().(*anypb.Any)
	if !isAny {
		v.walk(m, path)
		return
	}
	inner, err := a.UnmarshalNew()
	if err != nil {
		v.errs = append(v.errs, fmt.Errorf("%s: %w", path, err))
		return
	}
	if checked, ok := inner.(interface{ ValidateAll() error }); ok {
		if err := checked.ValidateAll(); err != nil {
			for _, e := range flatten(err) {
				v.errs = append(v.errs, fmt.Errorf("%s (%s): %w", path, a.GetTypeUrl(), e))
			}
		}
	}
	v.walk(inner.ProtoReflect(), path)
}
