// C++ namespaces holding types (pdwtags's "Namespaces:" section, pahole's
// namespace__fprintf): nested, anonymous, with structs, unions, enums and
// typedefs; a namespace alias and a using-declaration beside them.
namespace outer {
	namespace inner {
		struct Nested {
			int x;
			int y;
		};
		union Either {
			int i;
			float f;
		};
	}
	typedef long counter_t;
	enum mode { OFF, ON };
	struct InOuter {
		int a;
		inner::Nested n;
		inner::Either e;
		counter_t c;
		mode m;
	};
}

namespace {
	struct Hidden {
		long z;
	};
}

namespace alias_ns = outer::inner;
using outer::inner::Nested;

outer::InOuter g_outer;
Nested g_nested;
Hidden g_hidden;
