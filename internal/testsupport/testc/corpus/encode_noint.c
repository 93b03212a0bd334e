/* A unit without an "int" base type but with arrays: the encoder must add
 * the array index type itself. */
struct noint_buf {
	char name[16];
	unsigned char raw[2][3];
	unsigned long words[4];
};
struct noint_buf noint_var;
