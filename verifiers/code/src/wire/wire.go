// rewardbox's wire for Go test programs: the values a test passes to the function under test and
// the values it returns, crossing between the trusted test program and the live candidate (each
// in a sandbox of its own, one's standard output the other's standard input). Included in both
// programs after their imports; its own imports are aliased (rewardboxWire...), so that they
// meet none of the program's names.
//
// Every value crosses as itself, by reflection on the declared types: integers of each width in
// decimal, floats as their bit patterns (-0, NaN and the infinities arrive exactly), strings in
// hex, nil apart from empty for slices, maps, pointers and interfaces, arrays, structs, and an
// interface's dynamic type by name. A message is one line: the byte 0x1e, space-separated tokens,
// a newline; anything else on a line is skipped.

var rewardboxWireIn = rewardboxWireBufio.NewReaderSize(rewardboxWireOs.Stdin, 1<<16)

// rewardboxWireTypes are the dynamic types an interface value may carry across.
var rewardboxWireTypes = map[string]rewardboxWireReflect.Type{}

func init() {
	for _, v := range []interface{}{
		false, int(0), int8(0), int16(0), int32(0), int64(0), uint(0), uint8(0), uint16(0),
		uint32(0), uint64(0), uintptr(0), float32(0), float64(0), complex64(0), complex128(0), "",
		[]interface{}{}, map[interface{}]interface{}{}, map[string]interface{}{}, []int{},
		[]string{}, []float64{}, []bool{}, [][]int{}, []rune{}, []byte{}, map[string]int{},
		map[int]int{}, map[rune]int{}, map[string]string{}, map[string]bool{}, [2]int{},
		[2]float64{}, [2]string{}, [2]interface{}{}, [][2]int{}, struct{}{},
	} {
		t := rewardboxWireReflect.TypeOf(v)
		rewardboxWireTypes[t.String()] = t
	}
}

// rewardboxWireUntyped is a value of a kind that cannot cross (a function, a channel).
type rewardboxWireUntyped struct{ what string }

func rewardboxWireEncode(out *[]string, v rewardboxWireReflect.Value, depth int) {
	if depth > 10000 {
		panic(rewardboxWireUntyped{"a value nested deeper than 10000 levels (a cycle?)"})
	}
	switch v.Kind() {
	case rewardboxWireReflect.Bool:
		if v.Bool() {
			*out = append(*out, "T")
		} else {
			*out = append(*out, "F")
		}
	case rewardboxWireReflect.Int, rewardboxWireReflect.Int8, rewardboxWireReflect.Int16,
		rewardboxWireReflect.Int32, rewardboxWireReflect.Int64:
		*out = append(*out, "i"+rewardboxWireStrconv.FormatInt(v.Int(), 10))
	case rewardboxWireReflect.Uint, rewardboxWireReflect.Uint8, rewardboxWireReflect.Uint16,
		rewardboxWireReflect.Uint32, rewardboxWireReflect.Uint64, rewardboxWireReflect.Uintptr:
		*out = append(*out, "u"+rewardboxWireStrconv.FormatUint(v.Uint(), 10))
	case rewardboxWireReflect.Float32, rewardboxWireReflect.Float64:
		*out = append(*out, "f"+rewardboxWireStrconv.FormatUint(rewardboxWireMath.Float64bits(v.Float()), 16))
	case rewardboxWireReflect.Complex64, rewardboxWireReflect.Complex128:
		c := v.Complex()
		*out = append(*out, "c"+rewardboxWireStrconv.FormatUint(rewardboxWireMath.Float64bits(real(c)), 16),
			rewardboxWireStrconv.FormatUint(rewardboxWireMath.Float64bits(imag(c)), 16))
	case rewardboxWireReflect.String:
		*out = append(*out, "s"+rewardboxWireHex.EncodeToString([]byte(v.String())))
	case rewardboxWireReflect.Slice:
		if v.IsNil() {
			*out = append(*out, "N")
			return
		}
		*out = append(*out, "L"+rewardboxWireStrconv.Itoa(v.Len()))
		for i := 0; i < v.Len(); i++ {
			rewardboxWireEncode(out, v.Index(i), depth+1)
		}
	case rewardboxWireReflect.Array:
		*out = append(*out, "A"+rewardboxWireStrconv.Itoa(v.Len()))
		for i := 0; i < v.Len(); i++ {
			rewardboxWireEncode(out, v.Index(i), depth+1)
		}
	case rewardboxWireReflect.Map:
		if v.IsNil() {
			*out = append(*out, "N")
			return
		}
		*out = append(*out, "M"+rewardboxWireStrconv.Itoa(v.Len()))
		iter := v.MapRange()
		for iter.Next() {
			rewardboxWireEncode(out, iter.Key(), depth+1)
			rewardboxWireEncode(out, iter.Value(), depth+1)
		}
	case rewardboxWireReflect.Pointer:
		if v.IsNil() {
			*out = append(*out, "N")
			return
		}
		*out = append(*out, "P")
		rewardboxWireEncode(out, v.Elem(), depth+1)
	case rewardboxWireReflect.Interface:
		if v.IsNil() {
			*out = append(*out, "N")
			return
		}
		inner := v.Elem()
		name := inner.Type().String()
		if _, known := rewardboxWireTypes[name]; !known {
			panic(rewardboxWireUntyped{"a value of type " + name + " inside an interface"})
		}
		*out = append(*out, "I"+rewardboxWireHex.EncodeToString([]byte(name)))
		rewardboxWireEncode(out, inner, depth+1)
	case rewardboxWireReflect.Struct:
		*out = append(*out, "R"+rewardboxWireStrconv.Itoa(v.NumField()))
		for i := 0; i < v.NumField(); i++ {
			if !v.Type().Field(i).IsExported() {
				panic(rewardboxWireUntyped{"a struct with unexported fields (" + v.Type().String() + ")"})
			}
			rewardboxWireEncode(out, v.Field(i), depth+1)
		}
	default:
		panic(rewardboxWireUntyped{"a value of kind " + v.Kind().String() + " (" + v.Type().String() + ")"})
	}
}

// rewardboxWireMalformed is a message that is not one of the wire's.
type rewardboxWireMalformed struct{ what string }

type rewardboxWireReader struct {
	tokens []string
	at     int
}

func (r *rewardboxWireReader) next(what string) string {
	if r.at >= len(r.tokens) {
		panic(rewardboxWireMalformed{what})
	}
	r.at++
	return r.tokens[r.at-1]
}

func (r *rewardboxWireReader) count(token, what string) int {
	n, err := rewardboxWireStrconv.Atoi(token[1:])
	if err != nil || n < 0 || n > 1<<26 {
		panic(rewardboxWireMalformed{what})
	}
	return n
}

func (r *rewardboxWireReader) decode(v rewardboxWireReflect.Value) {
	token := r.next(v.Type().String())
	if token == "" {
		panic(rewardboxWireMalformed{v.Type().String()})
	}
	bad := func() { panic(rewardboxWireMalformed{v.Type().String()}) }
	switch v.Kind() {
	case rewardboxWireReflect.Bool:
		switch token {
		case "T":
			v.SetBool(true)
		case "F":
			v.SetBool(false)
		default:
			bad()
		}
	case rewardboxWireReflect.Int, rewardboxWireReflect.Int8, rewardboxWireReflect.Int16,
		rewardboxWireReflect.Int32, rewardboxWireReflect.Int64:
		n, err := rewardboxWireStrconv.ParseInt(token[1:], 10, v.Type().Bits())
		if token[0] != 'i' || err != nil {
			bad()
		}
		v.SetInt(n)
	case rewardboxWireReflect.Uint, rewardboxWireReflect.Uint8, rewardboxWireReflect.Uint16,
		rewardboxWireReflect.Uint32, rewardboxWireReflect.Uint64, rewardboxWireReflect.Uintptr:
		n, err := rewardboxWireStrconv.ParseUint(token[1:], 10, v.Type().Bits())
		if token[0] != 'u' || err != nil {
			bad()
		}
		v.SetUint(n)
	case rewardboxWireReflect.Float32, rewardboxWireReflect.Float64:
		bits, err := rewardboxWireStrconv.ParseUint(token[1:], 16, 64)
		if token[0] != 'f' || err != nil {
			bad()
		}
		v.SetFloat(rewardboxWireMath.Float64frombits(bits))
	case rewardboxWireReflect.Complex64, rewardboxWireReflect.Complex128:
		re, err1 := rewardboxWireStrconv.ParseUint(token[1:], 16, 64)
		im, err2 := rewardboxWireStrconv.ParseUint(r.next("complex"), 16, 64)
		if token[0] != 'c' || err1 != nil || err2 != nil {
			bad()
		}
		v.SetComplex(complex(rewardboxWireMath.Float64frombits(re), rewardboxWireMath.Float64frombits(im)))
	case rewardboxWireReflect.String:
		b, err := rewardboxWireHex.DecodeString(token[1:])
		if token[0] != 's' || err != nil {
			bad()
		}
		v.SetString(string(b))
	case rewardboxWireReflect.Slice:
		if token == "N" {
			v.Set(rewardboxWireReflect.Zero(v.Type()))
			return
		}
		if token[0] != 'L' {
			bad()
		}
		n := r.count(token, v.Type().String())
		s := rewardboxWireReflect.MakeSlice(v.Type(), n, n)
		for i := 0; i < n; i++ {
			r.decode(s.Index(i))
		}
		v.Set(s)
	case rewardboxWireReflect.Array:
		if token[0] != 'A' || r.count(token, v.Type().String()) != v.Len() {
			bad()
		}
		for i := 0; i < v.Len(); i++ {
			r.decode(v.Index(i))
		}
	case rewardboxWireReflect.Map:
		if token == "N" {
			v.Set(rewardboxWireReflect.Zero(v.Type()))
			return
		}
		if token[0] != 'M' {
			bad()
		}
		n := r.count(token, v.Type().String())
		m := rewardboxWireReflect.MakeMapWithSize(v.Type(), n)
		for i := 0; i < n; i++ {
			key := rewardboxWireReflect.New(v.Type().Key()).Elem()
			r.decode(key)
			value := rewardboxWireReflect.New(v.Type().Elem()).Elem()
			r.decode(value)
			if !key.Type().Comparable() {
				bad()
			}
			m.SetMapIndex(key, value)
		}
		v.Set(m)
	case rewardboxWireReflect.Pointer:
		if token == "N" {
			v.Set(rewardboxWireReflect.Zero(v.Type()))
			return
		}
		if token != "P" {
			bad()
		}
		p := rewardboxWireReflect.New(v.Type().Elem())
		r.decode(p.Elem())
		v.Set(p)
	case rewardboxWireReflect.Interface:
		if token == "N" {
			v.Set(rewardboxWireReflect.Zero(v.Type()))
			return
		}
		name, err := rewardboxWireHex.DecodeString(token[1:])
		t, known := rewardboxWireTypes[string(name)]
		if token[0] != 'I' || err != nil || !known || !t.Implements(v.Type()) {
			bad()
		}
		inner := rewardboxWireReflect.New(t).Elem()
		r.decode(inner)
		v.Set(inner)
	case rewardboxWireReflect.Struct:
		if token[0] != 'R' || r.count(token, v.Type().String()) != v.NumField() {
			bad()
		}
		for i := 0; i < v.NumField(); i++ {
			if !v.Type().Field(i).IsExported() {
				bad()
			}
			r.decode(v.Field(i))
		}
	default:
		bad()
	}
}

// rewardboxWireReceive reads the next message's tokens; false at the end of input.
func rewardboxWireReceive() ([]string, bool) {
	for {
		line, err := rewardboxWireIn.ReadString('\n')
		if at := rewardboxWireStrings.IndexByte(line, 0x1e); at >= 0 {
			return rewardboxWireStrings.Fields(line[at+1:]), true
		}
		if err != nil {
			return nil, false
		}
	}
}

func rewardboxWireSend(tokens []string) {
	rewardboxWireOs.Stdout.WriteString("\x1e" + rewardboxWireStrings.Join(tokens, " ") + "\n")
}

// rewardboxWireReport writes a line of the test run's report on stderr.
func rewardboxWireReport(text string) {
	rewardboxWireOs.Stderr.WriteString("\x1erb-" + rewardboxWireStrings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == 0x1e {
			return ' '
		}
		return r
	}, text) + "\n")
}

// rewardboxWireLastCall is the last call of the candidate, shown with a failed case.
var rewardboxWireLastCall string

// rewardboxWireCall calls function number `function` (`name`) of the live candidate with the
// values `args` point to, and stores its results through `results` (pointers). The trusted
// side.
func rewardboxWireCall(function int, name string, args []interface{}, results ...interface{}) {
	argsShown := make([]string, len(args))
	kind := "C"
	for i, p := range args {
		v := rewardboxWireReflect.ValueOf(p).Elem()
		argsShown[i] = rewardboxWireFmt.Sprintf("%#v", v.Interface())
		if rewardboxWireShared(v) {
			kind = "M"
		}
	}
	tokens := []string{kind + rewardboxWireStrconv.Itoa(function)}
	func() {
		defer func() {
			if p := recover(); p != nil {
				if u, ok := p.(rewardboxWireUntyped); ok {
					rewardboxWireReport("wire untyped " + u.what)
					rewardboxWireOs.Exit(3)
				}
				panic(p)
			}
		}()
		for _, p := range args {
			rewardboxWireEncode(&tokens, rewardboxWireReflect.ValueOf(p).Elem(), 0)
		}
	}()
	rewardboxWireSend(tokens)
	reply, ok := rewardboxWireReceive()
	if !ok {
		rewardboxWireReport("wire ended")
		rewardboxWireOs.Exit(3)
	}
	shown := make([]string, 0, len(results))
	func() {
		defer func() {
			if p := recover(); p != nil {
				if m, ok := p.(rewardboxWireMalformed); ok {
					rewardboxWireReport("wire malformed " + m.what)
					rewardboxWireOs.Exit(3)
				}
				panic(p)
			}
		}()
		r := &rewardboxWireReader{tokens: reply}
		if r.next("answer") != "R" {
			panic(rewardboxWireMalformed{"answer"})
		}
		for _, p := range results {
			v := rewardboxWireReflect.ValueOf(p).Elem()
			r.decode(v)
			shown = append(shown, rewardboxWireFmt.Sprintf("%#v", v.Interface()))
		}
		// The arguments the test code shares with the function, as the function left them.
		for _, p := range args {
			if v := rewardboxWireReflect.ValueOf(p).Elem(); rewardboxWireShared(v) {
				changed := rewardboxWireReflect.New(v.Type()).Elem()
				r.decode(changed)
				rewardboxWireTakeBack(v, changed)
			}
		}
		if r.at != len(r.tokens) {
			panic(rewardboxWireMalformed{"answer"})
		}
	}()
	rewardboxWireLastCall = name + "(" + rewardboxWireStrings.Join(argsShown, ", ") + ") returned " +
		rewardboxWireStrings.Join(shown, ", ")
	if len(rewardboxWireLastCall) > 300 {
		rewardboxWireLastCall = rewardboxWireLastCall[:300] + "..."
	}
}

// rewardboxWireShared says whether an argument is one the caller shares with the function
// natively (a slice's elements, a map, a pointer's target), so sees changed after the call: the
// candidate then answers with it as the call left it, after the results (a call `M`, not `C`).
func rewardboxWireShared(v rewardboxWireReflect.Value) bool {
	switch v.Kind() {
	case rewardboxWireReflect.Slice, rewardboxWireReflect.Map, rewardboxWireReflect.Ptr:
		return !v.IsNil()
	}
	return false
}

// rewardboxWireTakeBack makes the test code's argument `v` what the function left it, `changed`,
// as far as the function could change it natively: a slice's elements within its length, a
// map's entries, a pointer's target.
func rewardboxWireTakeBack(v, changed rewardboxWireReflect.Value) {
	switch v.Kind() {
	case rewardboxWireReflect.Slice:
		rewardboxWireReflect.Copy(v, changed)
	case rewardboxWireReflect.Map:
		for _, k := range v.MapKeys() {
			v.SetMapIndex(k, rewardboxWireReflect.Value{})
		}
		if !changed.IsNil() {
			iter := changed.MapRange()
			for iter.Next() {
				v.SetMapIndex(iter.Key(), iter.Value())
			}
		}
	case rewardboxWireReflect.Ptr:
		if !changed.IsNil() {
			v.Elem().Set(changed.Elem())
		}
	}
}

// rewardboxWireServe answers the test program's calls of `functions` (by number) until it ends.
// The candidate's side: a panic in a function ends the program, as it ends `go test`.
func rewardboxWireServe(functions []interface{}) {
	for {
		request, ok := rewardboxWireReceive()
		if !ok {
			return
		}
		r := &rewardboxWireReader{tokens: request}
		head := r.next("call")
		number, err := rewardboxWireStrconv.Atoi(head[1:])
		if (head[0] != 'C' && head[0] != 'M') || err != nil || number < 0 || number >= len(functions) {
			rewardboxWireOs.Stderr.WriteString("rewardbox: a malformed call on the wire\n")
			rewardboxWireOs.Exit(3)
		}
		f := rewardboxWireReflect.ValueOf(functions[number])
		t := f.Type()
		args := make([]rewardboxWireReflect.Value, t.NumIn())
		for i := range args {
			args[i] = rewardboxWireReflect.New(t.In(i)).Elem()
			r.decode(args[i])
		}
		var results []rewardboxWireReflect.Value
		if t.IsVariadic() {
			results = f.CallSlice(args)
		} else {
			results = f.Call(args)
		}
		tokens := []string{"R"}
		for _, v := range results {
			rewardboxWireEncode(&tokens, v, 0)
		}
		if head[0] == 'M' {
			for _, v := range args {
				if rewardboxWireShared(v) {
					rewardboxWireEncode(&tokens, v, 0)
				}
			}
		}
		rewardboxWireSend(tokens)
	}
}
