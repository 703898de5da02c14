// rewardbox's wire for C++ test programs: the values a test program passes to the function under
// test and the value it returns, crossing between the trusted test program and the live candidate
// (each in a sandbox of its own, one's standard output the other's standard input).
//
// Every type crosses as itself: integers of each width as decimal, floats as their bit patterns
// (so -0.0, NaN and the infinities arrive exactly), strings with their length, containers with
// their size, pairs, tuples and optionals element by element. A message is framed: it starts with
// the byte 0x1e and ends with a newline; bytes outside a frame (the candidate's own prints) are
// skipped.
//
// A parameter the function takes by non-const reference (`void sortColors(vector<int>& nums)`)
// is the caller's to see changed, as natively: the trusted side asks for it (a call `M` instead
// of `C`), and the answer holds, after the result, each such argument's value after the call,
// which the trusted side assigns to the test code's variable.
//
// Dynamic values (`std::any`, and `boost::any` when the program includes <boost/any.hpp>: the
// generated program defines REWARDBOX_WIRE_BOOST_ANY) cross as a tag naming the type they hold,
// one of `DynamicTypes`, then that value; an empty one as `-`. A value of another type cannot
// cross: the test code's is a fault of the task (reported as `untyped`), the candidate's a failed
// call.
#ifndef REWARDBOX_WIRE_HPP
#define REWARDBOX_WIRE_HPP
#include <any>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <deque>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace rewardbox_wire {

/// The most elements one container may claim: a larger count is a malformed message.
constexpr unsigned long long MAX_COUNT = 1ull << 26;

/// A message being written.
struct Out {
    std::string buf;
    void token(const std::string& t) { buf += t; buf += ' '; }
};

/// A message being read from standard input.
struct In {
    bool eof = false;
    int next() {
        int c = std::getchar();
        if (c == EOF) eof = true;
        return c;
    }
    /// Skips to the start of the next frame; false at the end of input.
    bool frame() {
        for (;;) {
            int c = next();
            if (c == EOF) return false;
            if (c == 0x1e) return true;
        }
    }
    std::string token() {
        std::string t;
        int c = next();
        while (c == ' ' || c == '\n') c = next();
        while (c != EOF && c != ' ' && c != '\n') {
            t += static_cast<char>(c);
            c = next();
        }
        return t;
    }
    [[noreturn]] void malformed(const char* what) {
        std::fprintf(stderr, "\x1erb-wire malformed %s\n", what);
        std::fflush(stderr);
        std::_Exit(3);
    }
    long long integer() {
        std::string t = token();
        if (t.empty()) malformed("integer");
        char* end = nullptr;
        long long v = std::strtoll(t.c_str(), &end, 10);
        if (*end) malformed("integer");
        return v;
    }
    unsigned long long unsigned_integer() {
        std::string t = token();
        if (t.empty()) malformed("integer");
        char* end = nullptr;
        unsigned long long v = std::strtoull(t.c_str(), &end, 16);
        if (*end) malformed("integer");
        return v;
    }
    unsigned long long count() {
        long long n = integer();
        if (n < 0 || static_cast<unsigned long long>(n) > MAX_COUNT) malformed("count");
        return static_cast<unsigned long long>(n);
    }
};

template <class T, class = void>
struct Codec;

template <>
struct Codec<bool> {
    static void put(Out& o, bool v) { o.token(v ? "1" : "0"); }
    static bool take(In& in) { return in.integer() != 0; }
};

template <class T>
struct Codec<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
    static void put(Out& o, T v) {
        if constexpr (std::is_signed_v<T>) {
            o.token(std::to_string(static_cast<long long>(v)));
        } else {
            char hex[32];
            std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(v));
            o.token(hex);
        }
    }
    static T take(In& in) {
        if constexpr (std::is_signed_v<T>) {
            return static_cast<T>(in.integer());
        } else {
            return static_cast<T>(in.unsigned_integer());
        }
    }
};

template <class T>
struct Codec<T, std::enable_if_t<std::is_enum_v<T>>> {
    using U = std::underlying_type_t<T>;
    static void put(Out& o, T v) { Codec<U>::put(o, static_cast<U>(v)); }
    static T take(In& in) { return static_cast<T>(Codec<U>::take(in)); }
};

template <>
struct Codec<float> {
    static void put(Out& o, float v) {
        std::uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        Codec<std::uint32_t>::put(o, bits);
    }
    static float take(In& in) {
        std::uint32_t bits = Codec<std::uint32_t>::take(in);
        float v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
};

template <>
struct Codec<double> {
    static void put(Out& o, double v) {
        std::uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        Codec<std::uint64_t>::put(o, bits);
    }
    static double take(In& in) {
        std::uint64_t bits = Codec<std::uint64_t>::take(in);
        double v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
};

/// `long double` crosses as a double (both ends are the same wasm32 build, where it is 128-bit;
/// the precision beyond a double's is lost).
template <>
struct Codec<long double> {
    static void put(Out& o, long double v) { Codec<double>::put(o, static_cast<double>(v)); }
    static long double take(In& in) { return Codec<double>::take(in); }
};

template <>
struct Codec<std::string> {
    static void put(Out& o, const std::string& v) {
        o.buf += std::to_string(v.size());
        o.buf += ':';
        o.buf += v;
        o.buf += ' ';
    }
    static std::string take(In& in) {
        std::string length;
        int c = in.next();
        while (c == ' ' || c == '\n') c = in.next();
        while (c >= '0' && c <= '9') {
            length += static_cast<char>(c);
            c = in.next();
        }
        if (c != ':' || length.empty() || length.size() > 9) in.malformed("string");
        unsigned long long n = std::stoull(length);
        if (n > MAX_COUNT) in.malformed("string");
        std::string v;
        v.reserve(n);
        for (unsigned long long i = 0; i < n; i++) {
            int b = in.next();
            if (b == EOF) in.malformed("string");
            v += static_cast<char>(b);
        }
        return v;
    }
};

/// Sequences: a count, then each element.
template <class T>
struct Codec<std::vector<T>> {
    static void put(Out& o, const std::vector<T>& v) {
        o.token(std::to_string(v.size()));
        for (const auto& e : v) Codec<T>::put(o, static_cast<T>(e));
    }
    static std::vector<T> take(In& in) {
        unsigned long long n = in.count();
        std::vector<T> v;
        for (unsigned long long i = 0; i < n; i++) v.push_back(Codec<T>::take(in));
        return v;
    }
};

template <class T>
struct Codec<std::deque<T>> {
    static void put(Out& o, const std::deque<T>& v) {
        o.token(std::to_string(v.size()));
        for (const auto& e : v) Codec<T>::put(o, e);
    }
    static std::deque<T> take(In& in) {
        unsigned long long n = in.count();
        std::deque<T> v;
        for (unsigned long long i = 0; i < n; i++) v.push_back(Codec<T>::take(in));
        return v;
    }
};

template <class T>
struct Codec<std::list<T>> {
    static void put(Out& o, const std::list<T>& v) {
        o.token(std::to_string(v.size()));
        for (const auto& e : v) Codec<T>::put(o, e);
    }
    static std::list<T> take(In& in) {
        unsigned long long n = in.count();
        std::list<T> v;
        for (unsigned long long i = 0; i < n; i++) v.push_back(Codec<T>::take(in));
        return v;
    }
};

template <class T, std::size_t N>
struct Codec<std::array<T, N>> {
    static void put(Out& o, const std::array<T, N>& v) {
        for (const auto& e : v) Codec<T>::put(o, e);
    }
    static std::array<T, N> take(In& in) {
        std::array<T, N> v;
        for (auto& e : v) e = Codec<T>::take(in);
        return v;
    }
};

/// Sets and maps: a count, then each element (a map's as key and value), inserted in order.
template <class C, class E>
struct AssociativeCodec {
    static void put(Out& o, const C& v) {
        o.token(std::to_string(v.size()));
        for (const auto& e : v) Codec<E>::put(o, e);
    }
    static C take(In& in) {
        unsigned long long n = in.count();
        C v;
        for (unsigned long long i = 0; i < n; i++) v.insert(Codec<E>::take(in));
        return v;
    }
};

template <class T, class... R>
struct Codec<std::set<T, R...>> : AssociativeCodec<std::set<T, R...>, T> {};
template <class T, class... R>
struct Codec<std::multiset<T, R...>> : AssociativeCodec<std::multiset<T, R...>, T> {};
template <class T, class... R>
struct Codec<std::unordered_set<T, R...>> : AssociativeCodec<std::unordered_set<T, R...>, T> {};
template <class T, class... R>
struct Codec<std::unordered_multiset<T, R...>>
    : AssociativeCodec<std::unordered_multiset<T, R...>, T> {};
template <class K, class V, class... R>
struct Codec<std::map<K, V, R...>> : AssociativeCodec<std::map<K, V, R...>, std::pair<K, V>> {};
template <class K, class V, class... R>
struct Codec<std::multimap<K, V, R...>>
    : AssociativeCodec<std::multimap<K, V, R...>, std::pair<K, V>> {};
template <class K, class V, class... R>
struct Codec<std::unordered_map<K, V, R...>>
    : AssociativeCodec<std::unordered_map<K, V, R...>, std::pair<K, V>> {};
template <class K, class V, class... R>
struct Codec<std::unordered_multimap<K, V, R...>>
    : AssociativeCodec<std::unordered_multimap<K, V, R...>, std::pair<K, V>> {};

template <class A, class B>
struct Codec<std::pair<A, B>> {
    static void put(Out& o, const std::pair<A, B>& v) {
        Codec<std::remove_const_t<A>>::put(o, v.first);
        Codec<B>::put(o, v.second);
    }
    static std::pair<A, B> take(In& in) {
        auto a = Codec<std::remove_const_t<A>>::take(in);
        auto b = Codec<B>::take(in);
        return std::pair<A, B>(std::move(a), std::move(b));
    }
};

template <class... T>
struct Codec<std::tuple<T...>> {
    static void put(Out& o, const std::tuple<T...>& v) {
        std::apply([&](const auto&... e) { (Codec<T>::put(o, e), ...); }, v);
    }
    static std::tuple<T...> take(In& in) { return std::tuple<T...>{Codec<T>::take(in)...}; }
};

template <class T>
struct Codec<std::optional<T>> {
    static void put(Out& o, const std::optional<T>& v) {
        o.token(v ? "1" : "0");
        if (v) Codec<T>::put(o, *v);
    }
    static std::optional<T> take(In& in) {
        if (in.integer() == 0) return std::nullopt;
        return Codec<T>::take(in);
    }
};

/// A value the wire does not carry (a dynamic value holding a type outside `DynamicTypes`),
/// thrown while a message is written.
struct Untyped : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// `const char*` (a string literal held by a dynamic value) crosses as a string; the receiving
/// side keeps the text for the rest of the run.
template <>
struct Codec<const char*> {
    static void put(Out& o, const char* v) {
        if (!v) throw Untyped("a null const char*");
        Codec<std::string>::put(o, std::string(v));
    }
    static const char* take(In& in) {
        static std::deque<std::string> kept;
        kept.push_back(Codec<std::string>::take(in));
        return kept.back().c_str();
    }
};

/// How the wire reads a dynamic value of type `A`: the held value as a `T` (null when it holds
/// another type), whether it is empty, and the held type.
template <class A>
struct AnyAccess;

template <>
struct AnyAccess<std::any> {
    static constexpr const char* name = "std::any";
    template <class T>
    static const T* get(const std::any& a) { return std::any_cast<T>(&a); }
    static bool empty(const std::any& a) { return !a.has_value(); }
    static const std::type_info& type(const std::any& a) { return a.type(); }
};

/// The types a dynamic value `A` may hold to cross, in tag order (both programs are built from
/// this header, so a tag means the same type on both sides): every arithmetic type, strings, and
/// the containers benchmarks put in one (HumanEval-X, MultiPL-E), of the value itself too.
template <class A>
using DynamicTypes = std::tuple<
    bool, char, signed char, unsigned char, short, unsigned short, int, unsigned, long,
    unsigned long, long long, unsigned long long, float, double, long double, std::string,
    const char*, std::vector<A>, std::vector<int>, std::vector<long>, std::vector<long long>,
    std::vector<float>, std::vector<double>, std::vector<std::string>, std::vector<char>,
    std::vector<bool>, std::list<A>, std::map<std::string, A>, std::map<int, int>,
    std::map<long, long>, std::map<long long, long long>, std::map<std::string, int>,
    std::map<std::string, long>, std::map<std::string, std::string>,
    std::map<std::string, double>, std::pair<A, A>>;

/// A type's name as C++ writes it (`std::set<int>`), for messages.
inline std::string type_name(const std::type_info& type) {
    int status = 0;
    char* demangled = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
    std::string name = status == 0 && demangled ? demangled : type.name();
    std::free(demangled);
    for (std::string::size_type at; (at = name.find("__1::")) != std::string::npos;)
        name.erase(at, 5);
    return name;
}

/// Dynamic values: a tag (the held type's place in `DynamicTypes`, `-` for an empty one), then
/// the held value.
template <class A>
struct DynamicCodec {
    using Types = DynamicTypes<A>;
    static constexpr std::size_t COUNT = std::tuple_size_v<Types>;

    static void put(Out& o, const A& v) {
        if (AnyAccess<A>::empty(v)) {
            o.token("-");
            return;
        }
        if (!put_held(o, v, std::make_index_sequence<COUNT>{})) {
            throw Untyped(std::string("a ") + AnyAccess<A>::name + " holding a value of type `" +
                          type_name(AnyAccess<A>::type(v)) +
                          "` (one crosses when it holds a number, a string, or a vector, list, "
                          "map or pair of the kinds rewardbox's wire lists)");
        }
    }
    template <std::size_t... I>
    static bool put_held(Out& o, const A& v, std::index_sequence<I...>) {
        return (put_as<std::tuple_element_t<I, Types>>(o, v, I) || ...);
    }
    template <class T>
    static bool put_as(Out& o, const A& v, std::size_t tag) {
        const T* held = AnyAccess<A>::template get<T>(v);
        if (!held) return false;
        o.token(std::to_string(tag));
        Codec<T>::put(o, *held);
        return true;
    }

    static A take(In& in) {
        std::string tag = in.token();
        if (tag == "-") return A();
        char* end = nullptr;
        unsigned long index = std::strtoul(tag.c_str(), &end, 10);
        if (tag.empty() || *end || index >= COUNT) in.malformed("dynamic value");
        return take_at(in, index, std::make_index_sequence<COUNT>{});
    }
    template <std::size_t... I>
    static A take_at(In& in, std::size_t tag, std::index_sequence<I...>) {
        A out;
        ((tag == I ? (out = A(Codec<std::tuple_element_t<I, Types>>::take(in)), true) : false) ||
         ...);
        return out;
    }
};

template <>
struct Codec<std::any> : DynamicCodec<std::any> {};

/// `text` as one line of a report: its line breaks and frame bytes made spaces.
inline std::string one_line(std::string text) {
    for (auto& c : text)
        if (c == '\n' || c == '\r' || c == 0x1e) c = ' ';
    return text;
}

inline void send(Out& o) {
    o.buf.insert(o.buf.begin(), '\x1e');
    o.buf += '\n';
    std::fwrite(o.buf.data(), 1, o.buf.size(), stdout);
    std::fflush(stdout);
}

/// Whether a parameter of type `P` is the caller's variable to see changed: a non-const lvalue
/// reference.
template <class P>
constexpr bool is_mutable_reference =
    std::is_lvalue_reference_v<P> && !std::is_const_v<std::remove_reference_t<P>>;

/// The trusted side: calls the candidate's function `fn` with `args`, of the function's
/// parameter types `P` (as declared: `decltype` of each parameter), and returns its value. An
/// argument a non-const reference parameter takes is assigned its value after the candidate's
/// call. An exception the candidate's function threw is thrown here as `std::runtime_error`; a
/// candidate that ended during the call ends the test program.
template <class R, class... P>
R call(int fn, std::add_lvalue_reference_t<P>... args) {
    constexpr bool mutates = (is_mutable_reference<P> || ...);
    Out o;
    o.token(mutates ? "M" : "C");
    o.token(std::to_string(fn));
    try {
        (Codec<std::decay_t<P>>::put(o, args), ...);
    } catch (const Untyped& e) {
        // The test code's value: the task's fault.
        std::fprintf(stderr, "\x1erb-wire untyped %s\n", e.what());
        std::fflush(stderr);
        std::_Exit(3);
    }
    send(o);
    In in;
    if (!in.frame()) {
        std::fprintf(stderr, "\x1erb-wire ended\n");
        std::fflush(stderr);
        std::_Exit(3);
    }
    std::string kind = in.token();
    if (kind == "E" || kind == "U") {
        // Reported too, so that a test run the exception ends says why. (`U`: the candidate's
        // function returned a value the wire does not carry, which fails the call the same way.)
        std::string what = Codec<std::string>::take(in);
        std::string shown = one_line(what.substr(0, 300));
        std::fprintf(stderr, "\x1erb-wire threw %s\n", shown.c_str());
        std::fflush(stderr);
        throw std::runtime_error(what);
    }
    if (kind != "R") in.malformed("answer");
    auto changed = [&]() {
        (
            [&] {
                if constexpr (is_mutable_reference<P>) args = Codec<std::decay_t<P>>::take(in);
            }(),
            ...);
    };
    if constexpr (std::is_void_v<R>) {
        changed();
    } else {
        R result = Codec<std::decay_t<R>>::take(in);
        changed();
        return result;
    }
}

/// The trusted side's assert: records each assert's first pass and first failure on stderr (the
/// verifier reads them as cases) and goes on, so that every assert is a case.
inline void check(bool ok, const char* expression, int line) {
    static std::set<std::pair<int, bool>> seen;
    if (!seen.insert({line, ok}).second) return;
    std::string shown = one_line(expression);
    if (shown.size() > 300) shown = shown.substr(0, 300) + "...";
    std::fprintf(stderr, "\x1erb-case line\x1f%d %s %s\n", line, ok ? "pass" : "fail", shown.c_str());
    std::fflush(stderr);
}

/// The candidate's side: puts the value after the call of each argument `f` takes by non-const
/// reference, in order.
template <class... A, class Args, std::size_t... I>
void put_changed(Out& o, Args& args, std::index_sequence<I...>) {
    (
        [&] {
            if constexpr (is_mutable_reference<A>) Codec<std::decay_t<A>>::put(o, std::get<I>(args));
        }(),
        ...);
}

/// The candidate's side: answers one call of `f`; `changed`: the caller asks for the arguments
/// `f` takes by non-const reference, after the call.
template <class R, class... A>
void answer(R (*f)(A...), In& in, bool changed) {
    std::tuple<std::decay_t<A>...> args{Codec<std::decay_t<A>>::take(in)...};
    Out o;
    try {
        if constexpr (std::is_void_v<R>) {
            std::apply(f, args);
            o.token("R");
        } else {
            R result = std::apply(f, args);
            o.token("R");
            Codec<std::decay_t<R>>::put(o, result);
        }
        if (changed) put_changed<A...>(o, args, std::index_sequence_for<A...>{});
    } catch (const Untyped& e) {
        // The function returned a value the wire does not carry: not an exception of its own.
        o = Out();
        o.token("U");
        Codec<std::string>::put(o, std::string(e.what()));
    } catch (const std::exception& e) {
        o = Out();
        o.token("E");
        Codec<std::string>::put(o, std::string(e.what()));
    } catch (...) {
        o = Out();
        o.token("E");
        Codec<std::string>::put(o, std::string("an exception that is not a std::exception"));
    }
    send(o);
}

/// The candidate's side: answers calls of `f` until its test program ends.
template <class R, class... A>
int serve(R (*f)(A...)) {
    In in;
    while (in.frame()) {
        std::string kind = in.token();
        if (kind != "C" && kind != "M") in.malformed("call");
        in.integer();
        answer(f, in, kind == "M");
    }
    return 0;
}

}  // namespace rewardbox_wire

#if defined(REWARDBOX_WIRE_BOOST_ANY)
#include <boost/any.hpp>
namespace rewardbox_wire {
template <>
struct AnyAccess<boost::any> {
    static constexpr const char* name = "boost::any";
    template <class T>
    static const T* get(const boost::any& a) { return boost::any_cast<T>(&a); }
    static bool empty(const boost::any& a) { return a.empty(); }
    static const std::type_info& type(const boost::any& a) { return a.type(); }
};
template <>
struct Codec<boost::any> : DynamicCodec<boost::any> {};
}  // namespace rewardbox_wire
#endif

#define RB_ASSERT_(...) \
    ::rewardbox_wire::check(static_cast<bool>(__VA_ARGS__), #__VA_ARGS__, __LINE__)
#endif
