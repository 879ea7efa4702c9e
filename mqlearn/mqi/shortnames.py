"""IBM i (RPG) short names and the C names they stand for (rule MD-03).

IBM MQ for IBM i documents the same MQI with six-character names: the MQMD field ``MDEXP`` is
``Expiry``, the constant ``EIULIM`` is ``MQEI_UNLIMITED``, reason ``RC2013`` is
``MQRC_EXPIRY_ERROR``. These tables let a reader of the IBM i pages ("MDEXP (10-digit signed
integer)", "MQMD (Message descriptor) on IBM i") use mqlearn's C names, and back.

Only names confirmed in IBM's IBM i documentation are listed: the RPG declaration and the field
descriptions of "MQMD (Message descriptor) on IBM i", "MDEXP (10-digit signed integer)", and IBM's
IBM i MQGMO/MQPMO pages (GMBRWF, GMWT, GMSYP, PMSYP, PMNSYP, CCFAIL, WIULIM). Reason codes follow
one rule instead of a table: ``RCnnnn`` is the MQRC_ constant whose value is nnnn.
"""

from __future__ import annotations

import difflib
import re

from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import reason_name

# MQMD field name -> RPG short name, in layout order ("RPG declaration" on "MQMD (Message
# descriptor) on IBM i").
FIELD_SHORT_NAMES: dict[str, str] = {
    "StrucId": "MDSID",
    "Version": "MDVER",
    "Report": "MDREP",
    "MsgType": "MDMT",
    "Expiry": "MDEXP",
    "Feedback": "MDFB",
    "Encoding": "MDENC",
    "CodedCharSetId": "MDCSI",
    "Format": "MDFMT",
    "Priority": "MDPRI",
    "Persistence": "MDPER",
    "MsgId": "MDMID",
    "CorrelId": "MDCID",
    "BackoutCount": "MDBOC",
    "ReplyToQ": "MDRQ",
    "ReplyToQMgr": "MDRM",
    "UserIdentifier": "MDUID",
    "AccountingToken": "MDACC",
    "ApplIdentityData": "MDAID",
    "PutApplType": "MDPAT",
    "PutApplName": "MDPAN",
    "PutDate": "MDPD",
    "PutTime": "MDPT",
    "ApplOriginData": "MDAOD",
    "GroupId": "MDGID",
    "MsgSeqNumber": "MDSEQ",
    "Offset": "MDOFF",
    "MsgFlags": "MDMFL",
    "OriginalLength": "MDOLN",
}

# CMQC constant name -> IBM i short name. Reason codes (RCnnnn) are by rule, except MQRC_NONE.
CONSTANT_SHORT_NAMES: dict[str, str] = {
    # MQMD structure
    "MQMD_STRUC_ID": "MDSIDV",
    "MQMD_VERSION_1": "MDVER1",
    "MQMD_VERSION_2": "MDVER2",
    "MQMD_CURRENT_VERSION": "MDVERC",
    # Report options
    "MQRO_NONE": "RONONE",
    "MQRO_EXCEPTION": "ROEXC",
    "MQRO_EXCEPTION_WITH_DATA": "ROEXCD",
    "MQRO_EXCEPTION_WITH_FULL_DATA": "ROEXCF",
    "MQRO_EXPIRATION": "ROEXP",
    "MQRO_EXPIRATION_WITH_DATA": "ROEXPD",
    "MQRO_EXPIRATION_WITH_FULL_DATA": "ROEXPF",
    "MQRO_COA": "ROCOA",
    "MQRO_COA_WITH_DATA": "ROCOAD",
    "MQRO_COA_WITH_FULL_DATA": "ROCOAF",
    "MQRO_COD": "ROCOD",
    "MQRO_COD_WITH_DATA": "ROCODD",
    "MQRO_COD_WITH_FULL_DATA": "ROCODF",
    "MQRO_PAN": "ROPAN",
    "MQRO_NAN": "RONAN",
    "MQRO_ACTIVITY": "ROACT",
    "MQRO_NEW_MSG_ID": "RONMI",
    "MQRO_PASS_MSG_ID": "ROPMI",
    "MQRO_COPY_MSG_ID_TO_CORREL_ID": "ROCMTC",
    "MQRO_PASS_CORREL_ID": "ROPCI",
    "MQRO_DEAD_LETTER_Q": "RODLQ",
    "MQRO_DISCARD_MSG": "RODISC",
    "MQRO_PASS_DISCARD_AND_EXPIRY": "ROPDAE",
    # Message types
    "MQMT_SYSTEM_FIRST": "MTSFST",
    "MQMT_SYSTEM_LAST": "MTSLST",
    "MQMT_DATAGRAM": "MTDGRM",
    "MQMT_REQUEST": "MTRQST",
    "MQMT_REPLY": "MTRPLY",
    "MQMT_REPORT": "MTRPRT",
    "MQMT_APPL_FIRST": "MTAFST",
    "MQMT_APPL_LAST": "MTALST",
    # Expiry, encoding, character set
    "MQEI_UNLIMITED": "EIULIM",
    "MQENC_NATIVE": "ENNAT",
    "MQCCSI_Q_MGR": "CSQM",
    "MQCCSI_INHERIT": "CSINHT",
    "MQCCSI_EMBEDDED": "CSEMBD",
    # Feedback
    "MQFB_NONE": "FBNONE",
    "MQFB_SYSTEM_FIRST": "FBSFST",
    "MQFB_SYSTEM_LAST": "FBSLST",
    "MQFB_APPL_FIRST": "FBAFST",
    "MQFB_APPL_LAST": "FBALST",
    "MQFB_COA": "FBCOA",
    "MQFB_COD": "FBCOD",
    "MQFB_EXPIRATION": "FBEXP",
    "MQFB_PAN": "FBPAN",
    "MQFB_NAN": "FBNAN",
    "MQFB_QUIT": "FBQUIT",
    # Formats
    "MQFMT_NONE": "FMNONE",
    "MQFMT_ADMIN": "FMADMN",
    "MQFMT_CICS": "FMCICS",
    "MQFMT_COMMAND_1": "FMCMD1",
    "MQFMT_COMMAND_2": "FMCMD2",
    "MQFMT_DEAD_LETTER_HEADER": "FMDLH",
    "MQFMT_DIST_HEADER": "FMDH",
    "MQFMT_EVENT": "FMEVNT",
    "MQFMT_IMS": "FMIMS",
    "MQFMT_IMS_VAR_STRING": "FMIMVS",
    "MQFMT_MD_EXTENSION": "FMMDE",
    "MQFMT_PCF": "FMPCF",
    "MQFMT_REF_MSG_HEADER": "FMRMH",
    "MQFMT_RF_HEADER": "FMRFH",
    "MQFMT_RF_HEADER_2": "FMRFH2",
    "MQFMT_STRING": "FMSTR",
    "MQFMT_TRIGGER": "FMTM",
    "MQFMT_WORK_INFO_HEADER": "FMWIH",
    "MQFMT_XMIT_Q_HEADER": "FMXQH",
    # Priority and persistence
    "MQPRI_PRIORITY_AS_Q_DEF": "PRQDEF",
    "MQPER_PERSISTENT": "PEPER",
    "MQPER_NOT_PERSISTENT": "PENPER",
    "MQPER_PERSISTENCE_AS_Q_DEF": "PEQDEF",
    # Identifiers
    "MQMI_NONE": "MINONE",
    "MQCI_NONE": "CINONE",
    "MQCI_NEW_SESSION": "CINEWS",
    "MQGI_NONE": "GINONE",
    "MQACT_NONE": "ACNONE",
    # Put-application types
    "MQAT_NO_CONTEXT": "ATNCON",
    "MQAT_CICS": "ATCICS",
    "MQAT_OS400": "AT400",
    "MQAT_UNIX": "ATUNIX",
    "MQAT_JAVA": "ATJAVA",
    "MQAT_DQM": "ATDQM",
    "MQAT_BROKER": "ATBRKR",
    "MQAT_QMGR": "ATQM",
    "MQAT_DEFAULT": "ATDEF",
    "MQAT_UNKNOWN": "ATUNK",
    # Message flags and original length
    "MQMF_NONE": "MFNONE",
    "MQMF_SEGMENTATION_INHIBITED": "MFSEGI",
    "MQMF_SEGMENTATION_ALLOWED": "MFSEGA",
    "MQMF_MSG_IN_GROUP": "MFMIG",
    "MQMF_LAST_MSG_IN_GROUP": "MFLMIG",
    "MQMF_SEGMENT": "MFSEG",
    "MQMF_LAST_SEGMENT": "MFLSEG",
    "MQOL_UNDEFINED": "OLUNDF",
    # Match options
    "MQMO_NONE": "MONONE",
    "MQMO_MATCH_MSG_ID": "MOMSGI",
    "MQMO_MATCH_CORREL_ID": "MOCORI",
    "MQMO_MATCH_GROUP_ID": "MOGRPI",
    "MQMO_MATCH_MSG_SEQ_NUMBER": "MOSEQN",
    "MQMO_MATCH_OFFSET": "MOOFFS",
    # Get-message options and wait interval
    "MQGMO_WAIT": "GMWT",
    "MQGMO_SYNCPOINT": "GMSYP",
    "MQGMO_BROWSE_FIRST": "GMBRWF",
    "MQGMO_BROWSE_NEXT": "GMBRWN",
    "MQGMO_MSG_UNDER_CURSOR": "GMMUC",
    "MQGMO_LOCK": "GMLK",
    "MQGMO_ACCEPT_TRUNCATED_MSG": "GMATM",
    "MQGMO_CONVERT": "GMCONV",
    "MQGMO_LOGICAL_ORDER": "GMLOGO",
    "MQGMO_COMPLETE_MSG": "GMCMPM",
    "MQWI_UNLIMITED": "WIULIM",
    # Put-message options
    "MQPMO_SYNCPOINT": "PMSYP",
    "MQPMO_NO_SYNCPOINT": "PMNSYP",
    "MQPMO_NEW_MSG_ID": "PMNMID",
    "MQPMO_NEW_CORREL_ID": "PMNCID",
    "MQPMO_LOGICAL_ORDER": "PMLOGO",
    "MQPMO_NO_CONTEXT": "PMNOC",
    "MQPMO_PASS_IDENTITY_CONTEXT": "PMPASI",
    "MQPMO_SET_IDENTITY_CONTEXT": "PMSETI",
    "MQPMO_SET_ALL_CONTEXT": "PMSETA",
    "MQPMO_RETAIN": "PMRET",
    # Completion and reason codes
    "MQCC_OK": "CCOK",
    "MQCC_WARNING": "CCWARN",
    "MQCC_FAILED": "CCFAIL",
    "MQRC_NONE": "RCNONE",
}

_C_NAMES = {short: name for name, short in (FIELD_SHORT_NAMES | CONSTANT_SHORT_NAMES).items()}
_REASON = re.compile(r"RC(0|[1-9][0-9]*)")
_REASON_PREFIX = "MQRC_"


def _unknown(name: str, known: dict[str, str]) -> KeyError:
    close = difflib.get_close_matches(name, known, n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return KeyError(f"no IBM i short name {name!r} known to mqlearn{hint}")


def from_short_name(short: str) -> str:
    """The C name for an IBM i short name: ``"MDEXP" -> "Expiry"``, ``"RC2013" -> "MQRC_..."``.

    Raises KeyError, suggesting close names, for a name mqlearn does not know.
    """
    try:
        return _C_NAMES[short]
    except KeyError:
        pass
    match = _REASON.fullmatch(short)
    if match:
        name = reason_name(int(match.group(1)))
        if hasattr(C, name):
            return name
    raise _unknown(short, _C_NAMES)


def to_short_name(c_name: str) -> str:
    """The IBM i short name for an MQMD field or a CMQC constant: ``"MQEI_UNLIMITED" -> "EIULIM"``.

    Any MQRC_ constant maps to ``RC`` + its value (``"MQRC_EXPIRY_ERROR" -> "RC2013"``).
    """
    short = FIELD_SHORT_NAMES.get(c_name) or CONSTANT_SHORT_NAMES.get(c_name)
    if short is not None:
        return short
    value = getattr(C, c_name, None) if c_name.startswith(_REASON_PREFIX) else None
    if isinstance(value, int):
        return f"RC{value}"
    raise _unknown(c_name, FIELD_SHORT_NAMES | CONSTANT_SHORT_NAMES)


def short_value(short: str) -> int | str | bytes:
    """The value of the constant an IBM i short name stands for: ``short_value("EIULIM") == -1``."""
    name = from_short_name(short)
    if name in FIELD_SHORT_NAMES:
        raise KeyError(f"{short!r} is the MQMD field {name}, not a constant")
    value: int | str | bytes = getattr(C, name)
    return value
