// rewardbox's `github.com/stretchr/testify/assert` for Go test programs (HumanEval-X's Go tests
// call `assert.New(t)` and `assert.Equal(expected, actual)`): the package's assertions with its
// documented semantics, written for rewardbox, built into the trusted test program in place of
// the import. `assert` is a value whose methods are the package's functions (`assert.Equal(t,
// expected, actual)`), and `assert.New(t)` gives the object form (`a.Equal(expected, actual)`).
// Each assertion reports a case for the line of the test code that called it, and fails the test
// through `t.Errorf` as testify does. Included after the wire (`wire.go`).

// rewardboxTestingT is what testify's assertions need of a test: `*testing.T` has it.
type rewardboxTestingT interface {
	Errorf(format string, args ...interface{})
}

type rewardboxAssertPackage struct{}

// assert stands for the package `github.com/stretchr/testify/assert`.
var assert rewardboxAssertPackage

// rewardboxAssertions is testify's `*assert.Assertions`.
type rewardboxAssertions struct{ t rewardboxTestingT }

func (rewardboxAssertPackage) New(t rewardboxTestingT) *rewardboxAssertions {
	return &rewardboxAssertions{t}
}

// rewardboxCaseLine is the line of the test code the assertion was called from ("" outside it).
func rewardboxCaseLine() string {
	for skip := 2; skip < 12; skip++ {
		_, file, line, ok := rewardboxWireRuntime.Caller(skip)
		if !ok {
			break
		}
		// The test code's `//line test:N` directive names the file; the compiler may put a
		// directory in front of it (`./test`).
		if file == "test" || rewardboxWireStrings.HasSuffix(file, "/test") {
			return rewardboxWireStrconv.Itoa(line)
		}
	}
	return ""
}

// rewardboxAssert reports the case and fails the test when `ok` is false.
func rewardboxAssert(t rewardboxTestingT, ok bool, failure string, msgAndArgs []interface{}) bool {
	if h, is := t.(interface{ Helper() }); is {
		h.Helper()
	}
	detail := ""
	if !ok {
		detail = failure
		if m := rewardboxMessage(msgAndArgs); m != "" {
			detail += " (" + m + ")"
		}
		if rewardboxWireLastCall != "" {
			detail += "; last call: " + rewardboxWireLastCall
		}
		t.Errorf("\n\tError:      \t%s", detail)
	}
	if line := rewardboxCaseLine(); line != "" {
		state := "pass"
		if !ok {
			state = "fail"
		}
		rewardboxWireReport("case line\x1f" + line + " " + state + " " + detail)
	}
	return ok
}

func rewardboxMessage(msgAndArgs []interface{}) string {
	if len(msgAndArgs) == 0 {
		return ""
	}
	if format, ok := msgAndArgs[0].(string); ok && len(msgAndArgs) > 1 {
		return rewardboxWireFmt.Sprintf(format, msgAndArgs[1:]...)
	}
	return rewardboxWireFmt.Sprint(msgAndArgs...)
}

// rewardboxObjectsAreEqual is testify's ObjectsAreEqual: nil only equals nil, byte slices by
// content, everything else by reflect.DeepEqual (so the types must match: 1 is not int64(1)).
func rewardboxObjectsAreEqual(expected, actual interface{}) bool {
	if expected == nil || actual == nil {
		return expected == actual
	}
	exp, ok := expected.([]byte)
	if !ok {
		return rewardboxWireReflect.DeepEqual(expected, actual)
	}
	act, ok := actual.([]byte)
	if !ok {
		return false
	}
	if exp == nil || act == nil {
		return exp == nil && act == nil
	}
	return string(exp) == string(act)
}

// rewardboxObjectsAreEqualValues is testify's ObjectsAreEqualValues: equal, or equal once
// `actual` is converted to `expected`'s type.
func rewardboxObjectsAreEqualValues(expected, actual interface{}) bool {
	if rewardboxObjectsAreEqual(expected, actual) {
		return true
	}
	if expected == nil || actual == nil {
		return false
	}
	et, av := rewardboxWireReflect.TypeOf(expected), rewardboxWireReflect.ValueOf(actual)
	if !av.Type().ConvertibleTo(et) {
		return false
	}
	return rewardboxWireReflect.DeepEqual(expected, av.Convert(et).Interface())
}

func rewardboxIsNil(object interface{}) bool {
	if object == nil {
		return true
	}
	v := rewardboxWireReflect.ValueOf(object)
	switch v.Kind() {
	case rewardboxWireReflect.Chan, rewardboxWireReflect.Func, rewardboxWireReflect.Interface,
		rewardboxWireReflect.Map, rewardboxWireReflect.Pointer, rewardboxWireReflect.Slice,
		rewardboxWireReflect.UnsafePointer:
		return v.IsNil()
	}
	return false
}

func rewardboxIsEmpty(object interface{}) bool {
	if object == nil {
		return true
	}
	v := rewardboxWireReflect.ValueOf(object)
	switch v.Kind() {
	case rewardboxWireReflect.Chan, rewardboxWireReflect.Map, rewardboxWireReflect.Slice:
		return v.Len() == 0
	case rewardboxWireReflect.Pointer:
		if v.IsNil() {
			return true
		}
		return rewardboxIsEmpty(v.Elem().Interface())
	}
	return rewardboxWireReflect.DeepEqual(object, rewardboxWireReflect.Zero(v.Type()).Interface())
}

func rewardboxShow(v interface{}) string { return rewardboxWireFmt.Sprintf("%#v", v) }

func rewardboxIsFunc(v interface{}) bool {
	return v != nil && rewardboxWireReflect.TypeOf(v).Kind() == rewardboxWireReflect.Func
}

func (rewardboxAssertPackage) Equal(t rewardboxTestingT, expected, actual interface{}, msgAndArgs ...interface{}) bool {
	if rewardboxIsFunc(expected) || rewardboxIsFunc(actual) {
		return rewardboxAssert(t, false, "Invalid operation: functions cannot be compared", msgAndArgs)
	}
	return rewardboxAssert(t, rewardboxObjectsAreEqual(expected, actual),
		"Not equal: expected: "+rewardboxShow(expected)+", actual: "+rewardboxShow(actual), msgAndArgs)
}

func (rewardboxAssertPackage) NotEqual(t rewardboxTestingT, expected, actual interface{}, msgAndArgs ...interface{}) bool {
	return rewardboxAssert(t, !rewardboxObjectsAreEqual(expected, actual),
		"Should not be: "+rewardboxShow(actual), msgAndArgs)
}

func (rewardboxAssertPackage) EqualValues(t rewardboxTestingT, expected, actual interface{}, msgAndArgs ...interface{}) bool {
	return rewardboxAssert(t, rewardboxObjectsAreEqualValues(expected, actual),
		"Not equal: expected: "+rewardboxShow(expected)+", actual: "+rewardboxShow(actual), msgAndArgs)
}

func (rewardboxAssertPackage) True(t rewardboxTestingT, value bool, msgAndArgs ...interface{}) bool {
	return rewardboxAssert(t, value, "Should be true", msgAndArgs)
}

func (rewardboxAssertPackage) False(t rewardboxTestingT, value bool, msgAndArgs ...interface{}) bool {
	return rewardboxAssert(t, !value, "Should be false", msgAndArgs)
}

func (rewardboxAssertPackage) Nil(t rewardboxTestingT, object interface{}, msgAndArgs ...interface{}) bool {
	return rewardboxAssert(t, rewardboxIsNil(object), "Expected nil, but got: "+rewardboxShow(object), msgAndArgs)
}

func (rewardboxAssertPackage) NotNil(t rewardboxTestingT, object interface{}, msgAndArgs ...interface{}) bool {
	return rewardboxAssert(t, !rewardboxIsNil(object), "Expected value not to be nil.", msgAndArgs)
}

func (rewardboxAssertPackage) Empty(t rewardboxTestingT, object interface{}, msgAndArgs ...interface{}) bool {
	return rewardboxAssert(t, rewardboxIsEmpty(object), "Should be empty, but was "+rewardboxShow(object), msgAndArgs)
}

func (rewardboxAssertPackage) NotEmpty(t rewardboxTestingT, object interface{}, msgAndArgs ...interface{}) bool {
	return rewardboxAssert(t, !rewardboxIsEmpty(object), "Should NOT be empty, but was "+rewardboxShow(object), msgAndArgs)
}

func (rewardboxAssertPackage) Len(t rewardboxTestingT, object interface{}, length int, msgAndArgs ...interface{}) bool {
	v := rewardboxWireReflect.ValueOf(object)
	ok := false
	n := 0
	func() {
		defer func() { recover() }()
		n = v.Len()
		ok = n == length
	}()
	return rewardboxAssert(t, ok, rewardboxWireFmt.Sprintf("%#v should have %d item(s), but has %d", object, length, n), msgAndArgs)
}

func (rewardboxAssertPackage) Contains(t rewardboxTestingT, s, contains interface{}, msgAndArgs ...interface{}) bool {
	found := false
	v := rewardboxWireReflect.ValueOf(s)
	switch v.Kind() {
	case rewardboxWireReflect.String:
		if c, ok := contains.(string); ok {
			found = rewardboxWireStrings.Contains(v.String(), c)
		}
	case rewardboxWireReflect.Map:
		for _, k := range v.MapKeys() {
			if rewardboxObjectsAreEqual(k.Interface(), contains) {
				found = true
			}
		}
	case rewardboxWireReflect.Slice, rewardboxWireReflect.Array:
		for i := 0; i < v.Len(); i++ {
			if rewardboxObjectsAreEqual(v.Index(i).Interface(), contains) {
				found = true
			}
		}
	}
	return rewardboxAssert(t, found, rewardboxShow(s)+" does not contain "+rewardboxShow(contains), msgAndArgs)
}

func (rewardboxAssertPackage) InDelta(t rewardboxTestingT, expected, actual interface{}, delta float64, msgAndArgs ...interface{}) bool {
	toFloat := func(x interface{}) (float64, bool) {
		v := rewardboxWireReflect.ValueOf(x)
		switch v.Kind() {
		case rewardboxWireReflect.Int, rewardboxWireReflect.Int8, rewardboxWireReflect.Int16,
			rewardboxWireReflect.Int32, rewardboxWireReflect.Int64:
			return float64(v.Int()), true
		case rewardboxWireReflect.Uint, rewardboxWireReflect.Uint8, rewardboxWireReflect.Uint16,
			rewardboxWireReflect.Uint32, rewardboxWireReflect.Uint64:
			return float64(v.Uint()), true
		case rewardboxWireReflect.Float32, rewardboxWireReflect.Float64:
			return v.Float(), true
		}
		return 0, false
	}
	e, ok1 := toFloat(expected)
	a, ok2 := toFloat(actual)
	ok := ok1 && ok2 && !rewardboxWireMath.IsNaN(a) && !rewardboxWireMath.IsNaN(e) && rewardboxWireMath.Abs(e-a) <= delta
	return rewardboxAssert(t, ok, rewardboxWireFmt.Sprintf("Max difference between %v and %v allowed is %v", expected, actual, delta), msgAndArgs)
}

func (a *rewardboxAssertions) Equal(expected, actual interface{}, msgAndArgs ...interface{}) bool {
	return assert.Equal(a.t, expected, actual, msgAndArgs...)
}

func (a *rewardboxAssertions) NotEqual(expected, actual interface{}, msgAndArgs ...interface{}) bool {
	return assert.NotEqual(a.t, expected, actual, msgAndArgs...)
}

func (a *rewardboxAssertions) EqualValues(expected, actual interface{}, msgAndArgs ...interface{}) bool {
	return assert.EqualValues(a.t, expected, actual, msgAndArgs...)
}

func (a *rewardboxAssertions) True(value bool, msgAndArgs ...interface{}) bool {
	return assert.True(a.t, value, msgAndArgs...)
}

func (a *rewardboxAssertions) False(value bool, msgAndArgs ...interface{}) bool {
	return assert.False(a.t, value, msgAndArgs...)
}

func (a *rewardboxAssertions) Nil(object interface{}, msgAndArgs ...interface{}) bool {
	return assert.Nil(a.t, object, msgAndArgs...)
}

func (a *rewardboxAssertions) NotNil(object interface{}, msgAndArgs ...interface{}) bool {
	return assert.NotNil(a.t, object, msgAndArgs...)
}

func (a *rewardboxAssertions) Empty(object interface{}, msgAndArgs ...interface{}) bool {
	return assert.Empty(a.t, object, msgAndArgs...)
}

func (a *rewardboxAssertions) NotEmpty(object interface{}, msgAndArgs ...interface{}) bool {
	return assert.NotEmpty(a.t, object, msgAndArgs...)
}

func (a *rewardboxAssertions) Len(object interface{}, length int, msgAndArgs ...interface{}) bool {
	return assert.Len(a.t, object, length, msgAndArgs...)
}

func (a *rewardboxAssertions) Contains(s, contains interface{}, msgAndArgs ...interface{}) bool {
	return assert.Contains(a.t, s, contains, msgAndArgs...)
}

func (a *rewardboxAssertions) InDelta(expected, actual interface{}, delta float64, msgAndArgs ...interface{}) bool {
	return assert.InDelta(a.t, expected, actual, delta, msgAndArgs...)
}
