package main

import (
	"fmt"
	"sort"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// fieldNumberOrder rewrites an encoded message so that its fields, and those
// of every nested message, appear in ascending field-number order (stable for
// repeated fields). It only moves whole fields; no value is re-encoded.
func fieldNumberOrder(b []byte, md protoreflect.MessageDescriptor) ([]byte, error) {
	type field struct {
		num protowire.Number
		raw []byte
	}
	var fields []field
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return nil, protowire.ParseError(m)
		}
		raw := b[:n+m]
		if fd := md.Fields().ByNumber(num); fd != nil && fd.Message() != nil && typ == protowire.BytesType {
			inner, _ := protowire.ConsumeBytes(b[n:])
			sorted, err := fieldNumberOrder(inner, fd.Message())
			if err != nil {
				return nil, fmt.Errorf("field %d: %w", num, err)
			}
			raw = protowire.AppendBytes(protowire.AppendTag(nil, num, typ), sorted)
		}
		fields = append(fields, field{num, raw})
		b = b[n+m:]
	}
	sort.SliceStable(fields, func(i, j int) bool { return fields[i].num < fields[j].num })
	var out []byte
	for _, f := range fields {
		out = append(out, f.raw...)
	}
	return out, nil
}
