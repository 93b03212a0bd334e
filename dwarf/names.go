// Names of DWARF tags, attributes and forms: the DWARF 5 standard's tables plus
// the GNU and LLVM extensions compilers emit into Linux kernels.

package dwarf

// Tag values (DW_TAG_*).
const (
	TagArrayType                Tag = 0x01   // DW_TAG_array_type
	TagClassType                Tag = 0x02   // DW_TAG_class_type
	TagEntryPoint               Tag = 0x03   // DW_TAG_entry_point
	TagEnumerationType          Tag = 0x04   // DW_TAG_enumeration_type
	TagFormalParameter          Tag = 0x05   // DW_TAG_formal_parameter
	TagImportedDeclaration      Tag = 0x08   // DW_TAG_imported_declaration
	TagLabel                    Tag = 0x0a   // DW_TAG_label
	TagLexicalBlock             Tag = 0x0b   // DW_TAG_lexical_block
	TagMember                   Tag = 0x0d   // DW_TAG_member
	TagPointerType              Tag = 0x0f   // DW_TAG_pointer_type
	TagReferenceType            Tag = 0x10   // DW_TAG_reference_type
	TagCompileUnit              Tag = 0x11   // DW_TAG_compile_unit
	TagStringType               Tag = 0x12   // DW_TAG_string_type
	TagStructureType            Tag = 0x13   // DW_TAG_structure_type
	TagSubroutineType           Tag = 0x15   // DW_TAG_subroutine_type
	TagTypedef                  Tag = 0x16   // DW_TAG_typedef
	TagUnionType                Tag = 0x17   // DW_TAG_union_type
	TagUnspecifiedParameters    Tag = 0x18   // DW_TAG_unspecified_parameters
	TagVariant                  Tag = 0x19   // DW_TAG_variant
	TagCommonBlock              Tag = 0x1a   // DW_TAG_common_block
	TagCommonInclusion          Tag = 0x1b   // DW_TAG_common_inclusion
	TagInheritance              Tag = 0x1c   // DW_TAG_inheritance
	TagInlinedSubroutine        Tag = 0x1d   // DW_TAG_inlined_subroutine
	TagModule                   Tag = 0x1e   // DW_TAG_module
	TagPtrToMemberType          Tag = 0x1f   // DW_TAG_ptr_to_member_type
	TagSetType                  Tag = 0x20   // DW_TAG_set_type
	TagSubrangeType             Tag = 0x21   // DW_TAG_subrange_type
	TagWithStmt                 Tag = 0x22   // DW_TAG_with_stmt
	TagAccessDeclaration        Tag = 0x23   // DW_TAG_access_declaration
	TagBaseType                 Tag = 0x24   // DW_TAG_base_type
	TagCatchBlock               Tag = 0x25   // DW_TAG_catch_block
	TagConstType                Tag = 0x26   // DW_TAG_const_type
	TagConstant                 Tag = 0x27   // DW_TAG_constant
	TagEnumerator               Tag = 0x28   // DW_TAG_enumerator
	TagFileType                 Tag = 0x29   // DW_TAG_file_type
	TagFriend                   Tag = 0x2a   // DW_TAG_friend
	TagNamelist                 Tag = 0x2b   // DW_TAG_namelist
	TagNamelistItem             Tag = 0x2c   // DW_TAG_namelist_item
	TagPackedType               Tag = 0x2d   // DW_TAG_packed_type
	TagSubprogram               Tag = 0x2e   // DW_TAG_subprogram
	TagTemplateTypeParameter    Tag = 0x2f   // DW_TAG_template_type_param
	TagTemplateValueParameter   Tag = 0x30   // DW_TAG_template_value_param
	TagThrownType               Tag = 0x31   // DW_TAG_thrown_type
	TagTryBlock                 Tag = 0x32   // DW_TAG_try_block
	TagVariantPart              Tag = 0x33   // DW_TAG_variant_part
	TagVariable                 Tag = 0x34   // DW_TAG_variable
	TagVolatileType             Tag = 0x35   // DW_TAG_volatile_type
	TagDwarfProcedure           Tag = 0x36   // DW_TAG_dwarf_procedure
	TagRestrictType             Tag = 0x37   // DW_TAG_restrict_type
	TagInterfaceType            Tag = 0x38   // DW_TAG_interface_type
	TagNamespace                Tag = 0x39   // DW_TAG_namespace
	TagImportedModule           Tag = 0x3a   // DW_TAG_imported_module
	TagUnspecifiedType          Tag = 0x3b   // DW_TAG_unspecified_type
	TagPartialUnit              Tag = 0x3c   // DW_TAG_partial_unit
	TagImportedUnit             Tag = 0x3d   // DW_TAG_imported_unit
	TagCondition                Tag = 0x3f   // DW_TAG_condition
	TagSharedType               Tag = 0x40   // DW_TAG_shared_type
	TagTypeUnit                 Tag = 0x41   // DW_TAG_type_unit
	TagRvalueReferenceType      Tag = 0x42   // DW_TAG_rvalue_reference_type
	TagTemplateAlias            Tag = 0x43   // DW_TAG_template_alias
	TagCoarrayType              Tag = 0x44   // DW_TAG_coarray_type
	TagGenericSubrange          Tag = 0x45   // DW_TAG_generic_subrange
	TagDynamicType              Tag = 0x46   // DW_TAG_dynamic_type
	TagAtomicType               Tag = 0x47   // DW_TAG_atomic_type
	TagCallSite                 Tag = 0x48   // DW_TAG_call_site
	TagCallSiteParameter        Tag = 0x49   // DW_TAG_call_site_parameter
	TagSkeletonUnit             Tag = 0x4a   // DW_TAG_skeleton_unit
	TagImmutableType            Tag = 0x4b   // DW_TAG_immutable_type
	TagMIPSLoop                 Tag = 0x4081 // DW_TAG_MIPS_loop
	TagFormatLabel              Tag = 0x4101 // DW_TAG_format_label
	TagFunctionTemplate         Tag = 0x4102 // DW_TAG_function_template
	TagClassTemplate            Tag = 0x4103 // DW_TAG_class_template
	TagGNUBINCL                 Tag = 0x4104 // DW_TAG_GNU_BINCL
	TagGNUEINCL                 Tag = 0x4105 // DW_TAG_GNU_EINCL
	TagGNUTemplateTemplateParam Tag = 0x4106 // DW_TAG_GNU_template_template_param
	TagGNUTemplateParameterPack Tag = 0x4107 // DW_TAG_GNU_template_parameter_pack
	TagGNUFormalParameterPack   Tag = 0x4108 // DW_TAG_GNU_formal_parameter_pack
	TagGNUCallSite              Tag = 0x4109 // DW_TAG_GNU_call_site
	TagGNUCallSiteParameter     Tag = 0x410a // DW_TAG_GNU_call_site_parameter
	TagLLVMAnnotation           Tag = 0x6000 // DW_TAG_LLVM_annotation
	TagGNUAnnotation            Tag = 0x6001 // DW_TAG_GNU_annotation
)

var tagNames = map[Tag]string{
	TagArrayType:                "DW_TAG_array_type",
	TagClassType:                "DW_TAG_class_type",
	TagEntryPoint:               "DW_TAG_entry_point",
	TagEnumerationType:          "DW_TAG_enumeration_type",
	TagFormalParameter:          "DW_TAG_formal_parameter",
	TagImportedDeclaration:      "DW_TAG_imported_declaration",
	TagLabel:                    "DW_TAG_label",
	TagLexicalBlock:             "DW_TAG_lexical_block",
	TagMember:                   "DW_TAG_member",
	TagPointerType:              "DW_TAG_pointer_type",
	TagReferenceType:            "DW_TAG_reference_type",
	TagCompileUnit:              "DW_TAG_compile_unit",
	TagStringType:               "DW_TAG_string_type",
	TagStructureType:            "DW_TAG_structure_type",
	TagSubroutineType:           "DW_TAG_subroutine_type",
	TagTypedef:                  "DW_TAG_typedef",
	TagUnionType:                "DW_TAG_union_type",
	TagUnspecifiedParameters:    "DW_TAG_unspecified_parameters",
	TagVariant:                  "DW_TAG_variant",
	TagCommonBlock:              "DW_TAG_common_block",
	TagCommonInclusion:          "DW_TAG_common_inclusion",
	TagInheritance:              "DW_TAG_inheritance",
	TagInlinedSubroutine:        "DW_TAG_inlined_subroutine",
	TagModule:                   "DW_TAG_module",
	TagPtrToMemberType:          "DW_TAG_ptr_to_member_type",
	TagSetType:                  "DW_TAG_set_type",
	TagSubrangeType:             "DW_TAG_subrange_type",
	TagWithStmt:                 "DW_TAG_with_stmt",
	TagAccessDeclaration:        "DW_TAG_access_declaration",
	TagBaseType:                 "DW_TAG_base_type",
	TagCatchBlock:               "DW_TAG_catch_block",
	TagConstType:                "DW_TAG_const_type",
	TagConstant:                 "DW_TAG_constant",
	TagEnumerator:               "DW_TAG_enumerator",
	TagFileType:                 "DW_TAG_file_type",
	TagFriend:                   "DW_TAG_friend",
	TagNamelist:                 "DW_TAG_namelist",
	TagNamelistItem:             "DW_TAG_namelist_item",
	TagPackedType:               "DW_TAG_packed_type",
	TagSubprogram:               "DW_TAG_subprogram",
	TagTemplateTypeParameter:    "DW_TAG_template_type_param",
	TagTemplateValueParameter:   "DW_TAG_template_value_param",
	TagThrownType:               "DW_TAG_thrown_type",
	TagTryBlock:                 "DW_TAG_try_block",
	TagVariantPart:              "DW_TAG_variant_part",
	TagVariable:                 "DW_TAG_variable",
	TagVolatileType:             "DW_TAG_volatile_type",
	TagDwarfProcedure:           "DW_TAG_dwarf_procedure",
	TagRestrictType:             "DW_TAG_restrict_type",
	TagInterfaceType:            "DW_TAG_interface_type",
	TagNamespace:                "DW_TAG_namespace",
	TagImportedModule:           "DW_TAG_imported_module",
	TagUnspecifiedType:          "DW_TAG_unspecified_type",
	TagPartialUnit:              "DW_TAG_partial_unit",
	TagImportedUnit:             "DW_TAG_imported_unit",
	TagCondition:                "DW_TAG_condition",
	TagSharedType:               "DW_TAG_shared_type",
	TagTypeUnit:                 "DW_TAG_type_unit",
	TagRvalueReferenceType:      "DW_TAG_rvalue_reference_type",
	TagTemplateAlias:            "DW_TAG_template_alias",
	TagCoarrayType:              "DW_TAG_coarray_type",
	TagGenericSubrange:          "DW_TAG_generic_subrange",
	TagDynamicType:              "DW_TAG_dynamic_type",
	TagAtomicType:               "DW_TAG_atomic_type",
	TagCallSite:                 "DW_TAG_call_site",
	TagCallSiteParameter:        "DW_TAG_call_site_parameter",
	TagSkeletonUnit:             "DW_TAG_skeleton_unit",
	TagImmutableType:            "DW_TAG_immutable_type",
	TagMIPSLoop:                 "DW_TAG_MIPS_loop",
	TagFormatLabel:              "DW_TAG_format_label",
	TagFunctionTemplate:         "DW_TAG_function_template",
	TagClassTemplate:            "DW_TAG_class_template",
	TagGNUBINCL:                 "DW_TAG_GNU_BINCL",
	TagGNUEINCL:                 "DW_TAG_GNU_EINCL",
	TagGNUTemplateTemplateParam: "DW_TAG_GNU_template_template_param",
	TagGNUTemplateParameterPack: "DW_TAG_GNU_template_parameter_pack",
	TagGNUFormalParameterPack:   "DW_TAG_GNU_formal_parameter_pack",
	TagGNUCallSite:              "DW_TAG_GNU_call_site",
	TagGNUCallSiteParameter:     "DW_TAG_GNU_call_site_parameter",
	TagLLVMAnnotation:           "DW_TAG_LLVM_annotation",
	TagGNUAnnotation:            "DW_TAG_GNU_annotation",
}

// Attr values (DW_AT_*).
const (
	AttrSibling                    Attr = 0x01   // DW_AT_sibling
	AttrLocation                   Attr = 0x02   // DW_AT_location
	AttrName                       Attr = 0x03   // DW_AT_name
	AttrOrdering                   Attr = 0x09   // DW_AT_ordering
	AttrByteSize                   Attr = 0x0b   // DW_AT_byte_size
	AttrBitOffset                  Attr = 0x0c   // DW_AT_bit_offset
	AttrBitSize                    Attr = 0x0d   // DW_AT_bit_size
	AttrStmtList                   Attr = 0x10   // DW_AT_stmt_list
	AttrLowPC                      Attr = 0x11   // DW_AT_low_pc
	AttrHighPC                     Attr = 0x12   // DW_AT_high_pc
	AttrLanguage                   Attr = 0x13   // DW_AT_language
	AttrDiscr                      Attr = 0x15   // DW_AT_discr
	AttrDiscrValue                 Attr = 0x16   // DW_AT_discr_value
	AttrVisibility                 Attr = 0x17   // DW_AT_visibility
	AttrImport                     Attr = 0x18   // DW_AT_import
	AttrStringLength               Attr = 0x19   // DW_AT_string_length
	AttrCommonReference            Attr = 0x1a   // DW_AT_common_reference
	AttrCompDir                    Attr = 0x1b   // DW_AT_comp_dir
	AttrConstValue                 Attr = 0x1c   // DW_AT_const_value
	AttrContainingType             Attr = 0x1d   // DW_AT_containing_type
	AttrDefaultValue               Attr = 0x1e   // DW_AT_default_value
	AttrInline                     Attr = 0x20   // DW_AT_inline
	AttrIsOptional                 Attr = 0x21   // DW_AT_is_optional
	AttrLowerBound                 Attr = 0x22   // DW_AT_lower_bound
	AttrProducer                   Attr = 0x25   // DW_AT_producer
	AttrPrototyped                 Attr = 0x27   // DW_AT_prototyped
	AttrReturnAddr                 Attr = 0x2a   // DW_AT_return_addr
	AttrStartScope                 Attr = 0x2c   // DW_AT_start_scope
	AttrBitStride                  Attr = 0x2e   // DW_AT_bit_stride
	AttrUpperBound                 Attr = 0x2f   // DW_AT_upper_bound
	AttrAbstractOrigin             Attr = 0x31   // DW_AT_abstract_origin
	AttrAccessibility              Attr = 0x32   // DW_AT_accessibility
	AttrAddressClass               Attr = 0x33   // DW_AT_address_class
	AttrArtificial                 Attr = 0x34   // DW_AT_artificial
	AttrBaseTypes                  Attr = 0x35   // DW_AT_base_types
	AttrCallingConvention          Attr = 0x36   // DW_AT_calling_convention
	AttrCount                      Attr = 0x37   // DW_AT_count
	AttrDataMemberLocation         Attr = 0x38   // DW_AT_data_member_location
	AttrDeclColumn                 Attr = 0x39   // DW_AT_decl_column
	AttrDeclFile                   Attr = 0x3a   // DW_AT_decl_file
	AttrDeclLine                   Attr = 0x3b   // DW_AT_decl_line
	AttrDeclaration                Attr = 0x3c   // DW_AT_declaration
	AttrDiscrList                  Attr = 0x3d   // DW_AT_discr_list
	AttrEncoding                   Attr = 0x3e   // DW_AT_encoding
	AttrExternal                   Attr = 0x3f   // DW_AT_external
	AttrFrameBase                  Attr = 0x40   // DW_AT_frame_base
	AttrFriend                     Attr = 0x41   // DW_AT_friend
	AttrIdentifierCase             Attr = 0x42   // DW_AT_identifier_case
	AttrMacroInfo                  Attr = 0x43   // DW_AT_macro_info
	AttrNamelistItem               Attr = 0x44   // DW_AT_namelist_item
	AttrPriority                   Attr = 0x45   // DW_AT_priority
	AttrSegment                    Attr = 0x46   // DW_AT_segment
	AttrSpecification              Attr = 0x47   // DW_AT_specification
	AttrStaticLink                 Attr = 0x48   // DW_AT_static_link
	AttrType                       Attr = 0x49   // DW_AT_type
	AttrUseLocation                Attr = 0x4a   // DW_AT_use_location
	AttrVariableParameter          Attr = 0x4b   // DW_AT_variable_parameter
	AttrVirtuality                 Attr = 0x4c   // DW_AT_virtuality
	AttrVtableElemLocation         Attr = 0x4d   // DW_AT_vtable_elem_location
	AttrAllocated                  Attr = 0x4e   // DW_AT_allocated
	AttrAssociated                 Attr = 0x4f   // DW_AT_associated
	AttrDataLocation               Attr = 0x50   // DW_AT_data_location
	AttrByteStride                 Attr = 0x51   // DW_AT_byte_stride
	AttrEntryPC                    Attr = 0x52   // DW_AT_entry_pc
	AttrUseUTF8                    Attr = 0x53   // DW_AT_use_UTF8
	AttrExtension                  Attr = 0x54   // DW_AT_extension
	AttrRanges                     Attr = 0x55   // DW_AT_ranges
	AttrTrampoline                 Attr = 0x56   // DW_AT_trampoline
	AttrCallColumn                 Attr = 0x57   // DW_AT_call_column
	AttrCallFile                   Attr = 0x58   // DW_AT_call_file
	AttrCallLine                   Attr = 0x59   // DW_AT_call_line
	AttrDescription                Attr = 0x5a   // DW_AT_description
	AttrBinaryScale                Attr = 0x5b   // DW_AT_binary_scale
	AttrDecimalScale               Attr = 0x5c   // DW_AT_decimal_scale
	AttrSmall                      Attr = 0x5d   // DW_AT_small
	AttrDecimalSign                Attr = 0x5e   // DW_AT_decimal_sign
	AttrDigitCount                 Attr = 0x5f   // DW_AT_digit_count
	AttrPictureString              Attr = 0x60   // DW_AT_picture_string
	AttrMutable                    Attr = 0x61   // DW_AT_mutable
	AttrThreadsScaled              Attr = 0x62   // DW_AT_threads_scaled
	AttrExplicit                   Attr = 0x63   // DW_AT_explicit
	AttrObjectPointer              Attr = 0x64   // DW_AT_object_pointer
	AttrEndianity                  Attr = 0x65   // DW_AT_endianity
	AttrElemental                  Attr = 0x66   // DW_AT_elemental
	AttrPure                       Attr = 0x67   // DW_AT_pure
	AttrRecursive                  Attr = 0x68   // DW_AT_recursive
	AttrSignature                  Attr = 0x69   // DW_AT_signature
	AttrMainSubprogram             Attr = 0x6a   // DW_AT_main_subprogram
	AttrDataBitOffset              Attr = 0x6b   // DW_AT_data_bit_offset
	AttrConstExpr                  Attr = 0x6c   // DW_AT_const_expr
	AttrEnumClass                  Attr = 0x6d   // DW_AT_enum_class
	AttrLinkageName                Attr = 0x6e   // DW_AT_linkage_name
	AttrStringLengthBitSize        Attr = 0x6f   // DW_AT_string_length_bit_size
	AttrStringLengthByteSize       Attr = 0x70   // DW_AT_string_length_byte_size
	AttrRank                       Attr = 0x71   // DW_AT_rank
	AttrStrOffsetsBase             Attr = 0x72   // DW_AT_str_offsets_base
	AttrAddrBase                   Attr = 0x73   // DW_AT_addr_base
	AttrRnglistsBase               Attr = 0x74   // DW_AT_rnglists_base
	AttrDwoName                    Attr = 0x76   // DW_AT_dwo_name
	AttrReference                  Attr = 0x77   // DW_AT_reference
	AttrRvalueReference            Attr = 0x78   // DW_AT_rvalue_reference
	AttrMacros                     Attr = 0x79   // DW_AT_macros
	AttrCallAllCalls               Attr = 0x7a   // DW_AT_call_all_calls
	AttrCallAllSourceCalls         Attr = 0x7b   // DW_AT_call_all_source_calls
	AttrCallAllTailCalls           Attr = 0x7c   // DW_AT_call_all_tail_calls
	AttrCallReturnPC               Attr = 0x7d   // DW_AT_call_return_pc
	AttrCallValue                  Attr = 0x7e   // DW_AT_call_value
	AttrCallOrigin                 Attr = 0x7f   // DW_AT_call_origin
	AttrCallParameter              Attr = 0x80   // DW_AT_call_parameter
	AttrCallPC                     Attr = 0x81   // DW_AT_call_pc
	AttrCallTailCall               Attr = 0x82   // DW_AT_call_tail_call
	AttrCallTarget                 Attr = 0x83   // DW_AT_call_target
	AttrCallTargetClobbered        Attr = 0x84   // DW_AT_call_target_clobbered
	AttrCallDataLocation           Attr = 0x85   // DW_AT_call_data_location
	AttrCallDataValue              Attr = 0x86   // DW_AT_call_data_value
	AttrNoreturn                   Attr = 0x87   // DW_AT_noreturn
	AttrAlignment                  Attr = 0x88   // DW_AT_alignment
	AttrExportSymbols              Attr = 0x89   // DW_AT_export_symbols
	AttrDeleted                    Attr = 0x8a   // DW_AT_deleted
	AttrDefaulted                  Attr = 0x8b   // DW_AT_defaulted
	AttrLoclistsBase               Attr = 0x8c   // DW_AT_loclists_base
	AttrMIPSLinkageName            Attr = 0x2007 // DW_AT_MIPS_linkage_name
	AttrSfNames                    Attr = 0x2101 // DW_AT_sf_names
	AttrSrcInfo                    Attr = 0x2102 // DW_AT_src_info
	AttrMacInfo                    Attr = 0x2103 // DW_AT_mac_info
	AttrSrcCoords                  Attr = 0x2104 // DW_AT_src_coords
	AttrBodyBegin                  Attr = 0x2105 // DW_AT_body_begin
	AttrBodyEnd                    Attr = 0x2106 // DW_AT_body_end
	AttrGNUVector                  Attr = 0x2107 // DW_AT_GNU_vector
	AttrGNUGuardedBy               Attr = 0x2108 // DW_AT_GNU_guarded_by
	AttrGNUPtGuardedBy             Attr = 0x2109 // DW_AT_GNU_pt_guarded_by
	AttrGNUGuarded                 Attr = 0x210a // DW_AT_GNU_guarded
	AttrGNUPtGuarded               Attr = 0x210b // DW_AT_GNU_pt_guarded
	AttrGNULocksExcluded           Attr = 0x210c // DW_AT_GNU_locks_excluded
	AttrGNUExclusiveLocksRequired  Attr = 0x210d // DW_AT_GNU_exclusive_locks_required
	AttrGNUSharedLocksRequired     Attr = 0x210e // DW_AT_GNU_shared_locks_required
	AttrGNUOdrSignature            Attr = 0x210f // DW_AT_GNU_odr_signature
	AttrGNUTemplateName            Attr = 0x2110 // DW_AT_GNU_template_name
	AttrGNUCallSiteValue           Attr = 0x2111 // DW_AT_GNU_call_site_value
	AttrGNUCallSiteDataValue       Attr = 0x2112 // DW_AT_GNU_call_site_data_value
	AttrGNUCallSiteTarget          Attr = 0x2113 // DW_AT_GNU_call_site_target
	AttrGNUCallSiteTargetClobbered Attr = 0x2114 // DW_AT_GNU_call_site_target_clobbered
	AttrGNUTailCall                Attr = 0x2115 // DW_AT_GNU_tail_call
	AttrGNUAllTailCallSites        Attr = 0x2116 // DW_AT_GNU_all_tail_call_sites
	AttrGNUAllCallSites            Attr = 0x2117 // DW_AT_GNU_all_call_sites
	AttrGNUAllSourceCallSites      Attr = 0x2118 // DW_AT_GNU_all_source_call_sites
	AttrGNUMacros                  Attr = 0x2119 // DW_AT_GNU_macros
	AttrGNUDeleted                 Attr = 0x211a // DW_AT_GNU_deleted
	AttrGNUDwoName                 Attr = 0x2130 // DW_AT_GNU_dwo_name
	AttrGNUDwoID                   Attr = 0x2131 // DW_AT_GNU_dwo_id
	AttrGNURangesBase              Attr = 0x2132 // DW_AT_GNU_ranges_base
	AttrGNUAddrBase                Attr = 0x2133 // DW_AT_GNU_addr_base
	AttrGNUPubnames                Attr = 0x2134 // DW_AT_GNU_pubnames
	AttrGNUPubtypes                Attr = 0x2135 // DW_AT_GNU_pubtypes
	AttrGNUDiscriminator           Attr = 0x2136 // DW_AT_GNU_discriminator
	AttrGNULocviews                Attr = 0x2137 // DW_AT_GNU_locviews
	AttrGNUEntryView               Attr = 0x2138 // DW_AT_GNU_entry_view
	AttrGNUAnnotation              Attr = 0x2139 // DW_AT_GNU_annotation
	AttrLLVMIncludePath            Attr = 0x3e01 // DW_AT_LLVM_include_path
	AttrLLVMConfigMacros           Attr = 0x3e02 // DW_AT_LLVM_config_macros
	AttrLLVMSysroot                Attr = 0x3e03 // DW_AT_LLVM_sysroot
	AttrLLVMTagOffset              Attr = 0x3e04 // DW_AT_LLVM_tag_offset
	AttrLLVMApinotes               Attr = 0x3e05 // DW_AT_LLVM_apinotes
	AttrLLVMActiveLane             Attr = 0x3e07 // DW_AT_LLVM_active_lane
	AttrLLVMAugmentation           Attr = 0x3e08 // DW_AT_LLVM_augmentation
	AttrLLVMLower                  Attr = 0x3e09 // DW_AT_LLVM_lower
	AttrAPPLEOptimized             Attr = 0x3fe1 // DW_AT_APPLE_optimized
	AttrAPPLESdk                   Attr = 0x3fef // DW_AT_APPLE_sdk
)

var attrNames = map[Attr]string{
	AttrSibling:                    "DW_AT_sibling",
	AttrLocation:                   "DW_AT_location",
	AttrName:                       "DW_AT_name",
	AttrOrdering:                   "DW_AT_ordering",
	AttrByteSize:                   "DW_AT_byte_size",
	AttrBitOffset:                  "DW_AT_bit_offset",
	AttrBitSize:                    "DW_AT_bit_size",
	AttrStmtList:                   "DW_AT_stmt_list",
	AttrLowPC:                      "DW_AT_low_pc",
	AttrHighPC:                     "DW_AT_high_pc",
	AttrLanguage:                   "DW_AT_language",
	AttrDiscr:                      "DW_AT_discr",
	AttrDiscrValue:                 "DW_AT_discr_value",
	AttrVisibility:                 "DW_AT_visibility",
	AttrImport:                     "DW_AT_import",
	AttrStringLength:               "DW_AT_string_length",
	AttrCommonReference:            "DW_AT_common_reference",
	AttrCompDir:                    "DW_AT_comp_dir",
	AttrConstValue:                 "DW_AT_const_value",
	AttrContainingType:             "DW_AT_containing_type",
	AttrDefaultValue:               "DW_AT_default_value",
	AttrInline:                     "DW_AT_inline",
	AttrIsOptional:                 "DW_AT_is_optional",
	AttrLowerBound:                 "DW_AT_lower_bound",
	AttrProducer:                   "DW_AT_producer",
	AttrPrototyped:                 "DW_AT_prototyped",
	AttrReturnAddr:                 "DW_AT_return_addr",
	AttrStartScope:                 "DW_AT_start_scope",
	AttrBitStride:                  "DW_AT_bit_stride",
	AttrUpperBound:                 "DW_AT_upper_bound",
	AttrAbstractOrigin:             "DW_AT_abstract_origin",
	AttrAccessibility:              "DW_AT_accessibility",
	AttrAddressClass:               "DW_AT_address_class",
	AttrArtificial:                 "DW_AT_artificial",
	AttrBaseTypes:                  "DW_AT_base_types",
	AttrCallingConvention:          "DW_AT_calling_convention",
	AttrCount:                      "DW_AT_count",
	AttrDataMemberLocation:         "DW_AT_data_member_location",
	AttrDeclColumn:                 "DW_AT_decl_column",
	AttrDeclFile:                   "DW_AT_decl_file",
	AttrDeclLine:                   "DW_AT_decl_line",
	AttrDeclaration:                "DW_AT_declaration",
	AttrDiscrList:                  "DW_AT_discr_list",
	AttrEncoding:                   "DW_AT_encoding",
	AttrExternal:                   "DW_AT_external",
	AttrFrameBase:                  "DW_AT_frame_base",
	AttrFriend:                     "DW_AT_friend",
	AttrIdentifierCase:             "DW_AT_identifier_case",
	AttrMacroInfo:                  "DW_AT_macro_info",
	AttrNamelistItem:               "DW_AT_namelist_item",
	AttrPriority:                   "DW_AT_priority",
	AttrSegment:                    "DW_AT_segment",
	AttrSpecification:              "DW_AT_specification",
	AttrStaticLink:                 "DW_AT_static_link",
	AttrType:                       "DW_AT_type",
	AttrUseLocation:                "DW_AT_use_location",
	AttrVariableParameter:          "DW_AT_variable_parameter",
	AttrVirtuality:                 "DW_AT_virtuality",
	AttrVtableElemLocation:         "DW_AT_vtable_elem_location",
	AttrAllocated:                  "DW_AT_allocated",
	AttrAssociated:                 "DW_AT_associated",
	AttrDataLocation:               "DW_AT_data_location",
	AttrByteStride:                 "DW_AT_byte_stride",
	AttrEntryPC:                    "DW_AT_entry_pc",
	AttrUseUTF8:                    "DW_AT_use_UTF8",
	AttrExtension:                  "DW_AT_extension",
	AttrRanges:                     "DW_AT_ranges",
	AttrTrampoline:                 "DW_AT_trampoline",
	AttrCallColumn:                 "DW_AT_call_column",
	AttrCallFile:                   "DW_AT_call_file",
	AttrCallLine:                   "DW_AT_call_line",
	AttrDescription:                "DW_AT_description",
	AttrBinaryScale:                "DW_AT_binary_scale",
	AttrDecimalScale:               "DW_AT_decimal_scale",
	AttrSmall:                      "DW_AT_small",
	AttrDecimalSign:                "DW_AT_decimal_sign",
	AttrDigitCount:                 "DW_AT_digit_count",
	AttrPictureString:              "DW_AT_picture_string",
	AttrMutable:                    "DW_AT_mutable",
	AttrThreadsScaled:              "DW_AT_threads_scaled",
	AttrExplicit:                   "DW_AT_explicit",
	AttrObjectPointer:              "DW_AT_object_pointer",
	AttrEndianity:                  "DW_AT_endianity",
	AttrElemental:                  "DW_AT_elemental",
	AttrPure:                       "DW_AT_pure",
	AttrRecursive:                  "DW_AT_recursive",
	AttrSignature:                  "DW_AT_signature",
	AttrMainSubprogram:             "DW_AT_main_subprogram",
	AttrDataBitOffset:              "DW_AT_data_bit_offset",
	AttrConstExpr:                  "DW_AT_const_expr",
	AttrEnumClass:                  "DW_AT_enum_class",
	AttrLinkageName:                "DW_AT_linkage_name",
	AttrStringLengthBitSize:        "DW_AT_string_length_bit_size",
	AttrStringLengthByteSize:       "DW_AT_string_length_byte_size",
	AttrRank:                       "DW_AT_rank",
	AttrStrOffsetsBase:             "DW_AT_str_offsets_base",
	AttrAddrBase:                   "DW_AT_addr_base",
	AttrRnglistsBase:               "DW_AT_rnglists_base",
	AttrDwoName:                    "DW_AT_dwo_name",
	AttrReference:                  "DW_AT_reference",
	AttrRvalueReference:            "DW_AT_rvalue_reference",
	AttrMacros:                     "DW_AT_macros",
	AttrCallAllCalls:               "DW_AT_call_all_calls",
	AttrCallAllSourceCalls:         "DW_AT_call_all_source_calls",
	AttrCallAllTailCalls:           "DW_AT_call_all_tail_calls",
	AttrCallReturnPC:               "DW_AT_call_return_pc",
	AttrCallValue:                  "DW_AT_call_value",
	AttrCallOrigin:                 "DW_AT_call_origin",
	AttrCallParameter:              "DW_AT_call_parameter",
	AttrCallPC:                     "DW_AT_call_pc",
	AttrCallTailCall:               "DW_AT_call_tail_call",
	AttrCallTarget:                 "DW_AT_call_target",
	AttrCallTargetClobbered:        "DW_AT_call_target_clobbered",
	AttrCallDataLocation:           "DW_AT_call_data_location",
	AttrCallDataValue:              "DW_AT_call_data_value",
	AttrNoreturn:                   "DW_AT_noreturn",
	AttrAlignment:                  "DW_AT_alignment",
	AttrExportSymbols:              "DW_AT_export_symbols",
	AttrDeleted:                    "DW_AT_deleted",
	AttrDefaulted:                  "DW_AT_defaulted",
	AttrLoclistsBase:               "DW_AT_loclists_base",
	AttrMIPSLinkageName:            "DW_AT_MIPS_linkage_name",
	AttrSfNames:                    "DW_AT_sf_names",
	AttrSrcInfo:                    "DW_AT_src_info",
	AttrMacInfo:                    "DW_AT_mac_info",
	AttrSrcCoords:                  "DW_AT_src_coords",
	AttrBodyBegin:                  "DW_AT_body_begin",
	AttrBodyEnd:                    "DW_AT_body_end",
	AttrGNUVector:                  "DW_AT_GNU_vector",
	AttrGNUGuardedBy:               "DW_AT_GNU_guarded_by",
	AttrGNUPtGuardedBy:             "DW_AT_GNU_pt_guarded_by",
	AttrGNUGuarded:                 "DW_AT_GNU_guarded",
	AttrGNUPtGuarded:               "DW_AT_GNU_pt_guarded",
	AttrGNULocksExcluded:           "DW_AT_GNU_locks_excluded",
	AttrGNUExclusiveLocksRequired:  "DW_AT_GNU_exclusive_locks_required",
	AttrGNUSharedLocksRequired:     "DW_AT_GNU_shared_locks_required",
	AttrGNUOdrSignature:            "DW_AT_GNU_odr_signature",
	AttrGNUTemplateName:            "DW_AT_GNU_template_name",
	AttrGNUCallSiteValue:           "DW_AT_GNU_call_site_value",
	AttrGNUCallSiteDataValue:       "DW_AT_GNU_call_site_data_value",
	AttrGNUCallSiteTarget:          "DW_AT_GNU_call_site_target",
	AttrGNUCallSiteTargetClobbered: "DW_AT_GNU_call_site_target_clobbered",
	AttrGNUTailCall:                "DW_AT_GNU_tail_call",
	AttrGNUAllTailCallSites:        "DW_AT_GNU_all_tail_call_sites",
	AttrGNUAllCallSites:            "DW_AT_GNU_all_call_sites",
	AttrGNUAllSourceCallSites:      "DW_AT_GNU_all_source_call_sites",
	AttrGNUMacros:                  "DW_AT_GNU_macros",
	AttrGNUDeleted:                 "DW_AT_GNU_deleted",
	AttrGNUDwoName:                 "DW_AT_GNU_dwo_name",
	AttrGNUDwoID:                   "DW_AT_GNU_dwo_id",
	AttrGNURangesBase:              "DW_AT_GNU_ranges_base",
	AttrGNUAddrBase:                "DW_AT_GNU_addr_base",
	AttrGNUPubnames:                "DW_AT_GNU_pubnames",
	AttrGNUPubtypes:                "DW_AT_GNU_pubtypes",
	AttrGNUDiscriminator:           "DW_AT_GNU_discriminator",
	AttrGNULocviews:                "DW_AT_GNU_locviews",
	AttrGNUEntryView:               "DW_AT_GNU_entry_view",
	AttrGNUAnnotation:              "DW_AT_GNU_annotation",
	AttrLLVMIncludePath:            "DW_AT_LLVM_include_path",
	AttrLLVMConfigMacros:           "DW_AT_LLVM_config_macros",
	AttrLLVMSysroot:                "DW_AT_LLVM_sysroot",
	AttrLLVMTagOffset:              "DW_AT_LLVM_tag_offset",
	AttrLLVMApinotes:               "DW_AT_LLVM_apinotes",
	AttrLLVMActiveLane:             "DW_AT_LLVM_active_lane",
	AttrLLVMAugmentation:           "DW_AT_LLVM_augmentation",
	AttrLLVMLower:                  "DW_AT_LLVM_lower",
	AttrAPPLEOptimized:             "DW_AT_APPLE_optimized",
	AttrAPPLESdk:                   "DW_AT_APPLE_sdk",
}

// Form values (DW_FORM_*).
const (
	FormAddr          Form = 0x01   // DW_FORM_addr
	FormBlock2        Form = 0x03   // DW_FORM_block2
	FormBlock4        Form = 0x04   // DW_FORM_block4
	FormData2         Form = 0x05   // DW_FORM_data2
	FormData4         Form = 0x06   // DW_FORM_data4
	FormData8         Form = 0x07   // DW_FORM_data8
	FormString        Form = 0x08   // DW_FORM_string
	FormBlock         Form = 0x09   // DW_FORM_block
	FormBlock1        Form = 0x0a   // DW_FORM_block1
	FormData1         Form = 0x0b   // DW_FORM_data1
	FormFlag          Form = 0x0c   // DW_FORM_flag
	FormSdata         Form = 0x0d   // DW_FORM_sdata
	FormStrp          Form = 0x0e   // DW_FORM_strp
	FormUdata         Form = 0x0f   // DW_FORM_udata
	FormRefAddr       Form = 0x10   // DW_FORM_ref_addr
	FormRef1          Form = 0x11   // DW_FORM_ref1
	FormRef2          Form = 0x12   // DW_FORM_ref2
	FormRef4          Form = 0x13   // DW_FORM_ref4
	FormRef8          Form = 0x14   // DW_FORM_ref8
	FormRefUdata      Form = 0x15   // DW_FORM_ref_udata
	FormIndirect      Form = 0x16   // DW_FORM_indirect
	FormSecOffset     Form = 0x17   // DW_FORM_sec_offset
	FormExprloc       Form = 0x18   // DW_FORM_exprloc
	FormFlagPresent   Form = 0x19   // DW_FORM_flag_present
	FormStrx          Form = 0x1a   // DW_FORM_strx
	FormAddrx         Form = 0x1b   // DW_FORM_addrx
	FormRefSup4       Form = 0x1c   // DW_FORM_ref_sup4
	FormStrpSup       Form = 0x1d   // DW_FORM_strp_sup
	FormData16        Form = 0x1e   // DW_FORM_data16
	FormLineStrp      Form = 0x1f   // DW_FORM_line_strp
	FormRefSig8       Form = 0x20   // DW_FORM_ref_sig8
	FormImplicitConst Form = 0x21   // DW_FORM_implicit_const
	FormLoclistx      Form = 0x22   // DW_FORM_loclistx
	FormRnglistx      Form = 0x23   // DW_FORM_rnglistx
	FormRefSup8       Form = 0x24   // DW_FORM_ref_sup8
	FormStrx1         Form = 0x25   // DW_FORM_strx1
	FormStrx2         Form = 0x26   // DW_FORM_strx2
	FormStrx3         Form = 0x27   // DW_FORM_strx3
	FormStrx4         Form = 0x28   // DW_FORM_strx4
	FormAddrx1        Form = 0x29   // DW_FORM_addrx1
	FormAddrx2        Form = 0x2a   // DW_FORM_addrx2
	FormAddrx3        Form = 0x2b   // DW_FORM_addrx3
	FormAddrx4        Form = 0x2c   // DW_FORM_addrx4
	FormGNUAddrIndex  Form = 0x1f01 // DW_FORM_GNU_addr_index
	FormGNUStrIndex   Form = 0x1f02 // DW_FORM_GNU_str_index
	FormGNURefAlt     Form = 0x1f20 // DW_FORM_GNU_ref_alt
	FormGNUStrpAlt    Form = 0x1f21 // DW_FORM_GNU_strp_alt
)

var formNames = map[Form]string{
	FormAddr:          "DW_FORM_addr",
	FormBlock2:        "DW_FORM_block2",
	FormBlock4:        "DW_FORM_block4",
	FormData2:         "DW_FORM_data2",
	FormData4:         "DW_FORM_data4",
	FormData8:         "DW_FORM_data8",
	FormString:        "DW_FORM_string",
	FormBlock:         "DW_FORM_block",
	FormBlock1:        "DW_FORM_block1",
	FormData1:         "DW_FORM_data1",
	FormFlag:          "DW_FORM_flag",
	FormSdata:         "DW_FORM_sdata",
	FormStrp:          "DW_FORM_strp",
	FormUdata:         "DW_FORM_udata",
	FormRefAddr:       "DW_FORM_ref_addr",
	FormRef1:          "DW_FORM_ref1",
	FormRef2:          "DW_FORM_ref2",
	FormRef4:          "DW_FORM_ref4",
	FormRef8:          "DW_FORM_ref8",
	FormRefUdata:      "DW_FORM_ref_udata",
	FormIndirect:      "DW_FORM_indirect",
	FormSecOffset:     "DW_FORM_sec_offset",
	FormExprloc:       "DW_FORM_exprloc",
	FormFlagPresent:   "DW_FORM_flag_present",
	FormStrx:          "DW_FORM_strx",
	FormAddrx:         "DW_FORM_addrx",
	FormRefSup4:       "DW_FORM_ref_sup4",
	FormStrpSup:       "DW_FORM_strp_sup",
	FormData16:        "DW_FORM_data16",
	FormLineStrp:      "DW_FORM_line_strp",
	FormRefSig8:       "DW_FORM_ref_sig8",
	FormImplicitConst: "DW_FORM_implicit_const",
	FormLoclistx:      "DW_FORM_loclistx",
	FormRnglistx:      "DW_FORM_rnglistx",
	FormRefSup8:       "DW_FORM_ref_sup8",
	FormStrx1:         "DW_FORM_strx1",
	FormStrx2:         "DW_FORM_strx2",
	FormStrx3:         "DW_FORM_strx3",
	FormStrx4:         "DW_FORM_strx4",
	FormAddrx1:        "DW_FORM_addrx1",
	FormAddrx2:        "DW_FORM_addrx2",
	FormAddrx3:        "DW_FORM_addrx3",
	FormAddrx4:        "DW_FORM_addrx4",
	FormGNUAddrIndex:  "DW_FORM_GNU_addr_index",
	FormGNUStrIndex:   "DW_FORM_GNU_str_index",
	FormGNURefAlt:     "DW_FORM_GNU_ref_alt",
	FormGNUStrpAlt:    "DW_FORM_GNU_strp_alt",
}
