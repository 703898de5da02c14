// rewardbox: calls between an IOI/CMS grader and the submission's functions, each side in a
// sandbox of its own. A call is `C <function> <arguments>` on one line; its return is
// `R <value> <reference arguments>`. Numbers are written in decimal (floating point in hex,
// exactly), a string as `<length>:<bytes>`, a vector as its length then its items, a pair as its
// two items. While a side waits for a return it serves the calls the other side makes to it.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace rewardbox_functions {

static std::FILE* wire_in = nullptr;
static std::FILE* wire_out = nullptr;

// Defined by each side: open the wire, and what to do when the other side has ended.
void connect();
[[noreturn]] void peer_ended();
// Defined by each side: serve a call of one of the functions it implements.
void serve(int function);

template <class T, class = void>
struct Wire;

template <class T>
struct Wire<T, typename std::enable_if<std::is_arithmetic<T>::value>::type> {
    static void put(const T& v) {
        if constexpr (std::is_same<T, long double>::value) {
            std::fprintf(wire_out, "%La ", v);
        } else if constexpr (std::is_floating_point<T>::value) {
            std::fprintf(wire_out, "%a ", static_cast<double>(v));
        } else if constexpr (std::is_signed<T>::value) {
            std::fprintf(wire_out, "%lld ", static_cast<long long>(v));
        } else {
            std::fprintf(wire_out, "%llu ", static_cast<unsigned long long>(v));
        }
    }
    static void get(T& v) {
        if constexpr (std::is_floating_point<T>::value) {
            char text[96];
            if (std::fscanf(wire_in, "%95s", text) != 1) peer_ended();
            v = static_cast<T>(std::strtold(text, nullptr));
        } else if constexpr (std::is_signed<T>::value) {
            long long x;
            if (std::fscanf(wire_in, "%lld", &x) != 1) peer_ended();
            v = static_cast<T>(x);
        } else {
            unsigned long long x;
            if (std::fscanf(wire_in, "%llu", &x) != 1) peer_ended();
            v = static_cast<T>(x);
        }
    }
};

template <>
struct Wire<std::string> {
    static void put(const std::string& s) {
        std::fprintf(wire_out, "%zu:", s.size());
        std::fwrite(s.data(), 1, s.size(), wire_out);
        std::fputc(' ', wire_out);
    }
    static void get(std::string& s) {
        std::size_t n;
        if (std::fscanf(wire_in, "%zu", &n) != 1 || std::fgetc(wire_in) != ':') peer_ended();
        s.assign(n, '\0');
        if (n != 0 && std::fread(&s[0], 1, n, wire_in) != n) peer_ended();
    }
};

template <class T>
struct Wire<std::vector<T>> {
    static void put(const std::vector<T>& v) {
        std::fprintf(wire_out, "%zu ", v.size());
        for (std::size_t i = 0; i < v.size(); i++) Wire<T>::put(v[i]);
    }
    static void get(std::vector<T>& v) {
        std::size_t n;
        if (std::fscanf(wire_in, "%zu", &n) != 1) peer_ended();
        v.clear();
        for (std::size_t i = 0; i < n; i++) {
            T item{};
            Wire<T>::get(item);
            v.push_back(item);
        }
    }
};

template <class A, class B>
struct Wire<std::pair<A, B>> {
    static void put(const std::pair<A, B>& p) {
        Wire<A>::put(p.first);
        Wire<B>::put(p.second);
    }
    static void get(std::pair<A, B>& p) {
        Wire<A>::get(p.first);
        Wire<B>::get(p.second);
    }
};

template <class T>
void put(const T& v) {
    Wire<typename std::remove_cv<T>::type>::put(v);
}

template <class T>
void get(T& v) {
    Wire<T>::get(v);
}

// Starts a call of `function`; its arguments follow.
inline void call(int function) {
    connect();
    std::fprintf(wire_out, "C %d ", function);
}

// Starts a return; the value and the reference arguments follow.
inline void reply() { std::fputs("R ", wire_out); }

// Ends a message.
inline void send() {
    std::fputc('\n', wire_out);
    std::fflush(wire_out);
}

// The next message's kind: 'C' or 'R' (anything else: the other side ended or broke the wire).
inline int next_message() {
    int c;
    do {
        c = std::fgetc(wire_in);
    } while (c == ' ' || c == '\n');
    return c;
}

// Serves the other side's calls until the return of this side's call comes.
inline void await_return() {
    for (;;) {
        int kind = next_message();
        if (kind == 'R') return;
        if (kind != 'C') peer_ended();
        int function;
        get(function);
        serve(function);
    }
}

}  // namespace rewardbox_functions
