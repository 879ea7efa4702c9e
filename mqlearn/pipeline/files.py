"""Trace files in, output tables out: what the streaming replay and the Spark replay share.

Inputs are Parquet (a file or a directory of parts) or CSV with a header (a name ending in
``.csv``), opened with pyarrow on this machine and checked before anything runs. Outputs go to
``out/_staging/<table>/part-NNNNN.parquet`` and are moved into place (``out/messages``,
``out/calls``, ``out/depth``, ``out/summary``, ``out/rejects``, then ``out/_SUCCESS``) only when
everything succeeded; on failure the staging directory is removed and earlier outputs stay.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.dataset as ds
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from mqlearn.pipeline.schema import OUTPUT_COLUMNS, TABLES, SchemaError, missing_or_mistyped
from mqlearn.pipeline.spark import arrow_to_pandas, pandas_dtypes

STAGING = "_staging"
SUCCESS = "_SUCCESS"


class TraceError(ValueError):
    """An input the replay cannot start on (the message says which and why); nothing has run."""


@dataclass(frozen=True)
class Source:
    """Where a table is: its file system, the path on it, its format and its files."""

    path: str
    filesystem: pafs.FileSystem
    where: str
    is_csv: bool
    dataset: ds.Dataset


def _csv_format(columns: dict[str, str], dictionary: tuple[str, ...]) -> ds.CsvFileFormat:
    """CSV read with the declared types (integers as int64: a value out of its declared range
    is the row's problem, not the file's); an empty field is null, as Spark reads it."""
    types = {
        name: pa.dictionary(pa.int32(), pa.string())
        if name in dictionary
        else pa.string()
        if dtype == "string"
        else pa.int64()
        for name, dtype in columns.items()
    }
    options = pacsv.ConvertOptions(column_types=types, strings_can_be_null=True)
    return ds.CsvFileFormat(convert_options=options)


def open_source(
    path: str | Path, what: str, columns: dict[str, str], dictionary: tuple[str, ...] = ()
) -> Source:
    """Open the Parquet or CSV data at ``path`` with pyarrow, reading the ``dictionary`` columns
    dictionary-encoded; TraceError if nothing readable is there, SchemaError naming every
    missing or mistyped column (CSV: names only, it has no types)."""
    text = str(path)
    uri = text if "://" in text else str(Path(text).absolute())
    is_csv = text.lower().rstrip("/").endswith(".csv")
    try:
        filesystem, where = pafs.FileSystem.from_uri(uri)
        if filesystem.get_file_info(where).type == pafs.FileType.NotFound:
            raise TraceError(f"{what} {text} does not exist")
        if is_csv:
            file_format: ds.FileFormat = _csv_format(columns, dictionary)
        else:
            options = ds.ParquetReadOptions(dictionary_columns=set(dictionary))
            file_format = ds.ParquetFileFormat(
                read_options=options,
                # pre-buffering keeps every column chunk read from a file until the whole file
                # is read: a 100M-row file held 2 GiB of them by its end (docs/pipeline.md)
                default_fragment_scan_options=ds.ParquetFragmentScanOptions(pre_buffer=False),
            )
        dataset = ds.dataset(where, filesystem=filesystem, format=file_format)
    except (pa.ArrowException, OSError) as error:
        raise TraceError(f"{what} {text} cannot be read: {error}") from None
    source = Source(text, filesystem, where, is_csv, dataset)
    found = pandas_dtypes(dataset.schema)
    if is_csv:
        found = {name: columns.get(name, "string") for name in found}
    problems = missing_or_mistyped(found, columns)
    if problems:
        raise SchemaError(f"{what} {text}: " + "; ".join(problems))
    return source


def batches(source: Source, columns: list[str], batch_rows: int) -> Iterator[pa.RecordBatch]:
    """The rows of a source in file order, a few columns, at most ``batch_rows`` at a time
    (reading ahead one batch and one file: pyarrow's default of 16 batches and 4 files would
    hold millions of rows); TraceError if a value cannot be read (e.g. a CSV field that is not a
    number)."""
    try:
        yield from source.dataset.to_batches(
            columns=columns, batch_size=batch_rows, batch_readahead=1, fragment_readahead=1
        )
    except pa.ArrowInvalid as error:
        raise TraceError(f"trace {source.path} cannot be read: {error}") from None


def read_definitions(path: str | Path, columns: dict[str, str]) -> pd.DataFrame:
    """A small table (queue definitions) read whole, in the declared dtypes."""
    source = open_source(path, "queue definitions", columns)
    return arrow_to_pandas(source.dataset.to_table(columns=list(columns)), columns)


def local_directory(out: str | Path) -> Path:
    """The output directory as a local path (or a shared mount: every writer needs it)."""
    text = str(out)
    if "://" in text and not text.startswith("file://"):
        raise ValueError(
            f"out {text}: the replay writes its tables from every task, so it needs a directory "
            "all executors share as a file system path (local, or a shared mount)"
        )
    return Path(text.removeprefix("file://")).absolute()


@contextmanager
def staged(out_dir: Path) -> Iterator[Path]:
    """A fresh staging directory under ``out_dir``; its tables replace the outputs there when the
    block succeeds, and it is removed when the block fails."""
    staging = out_dir / STAGING
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    for name in TABLES:
        shutil.rmtree(out_dir / name, ignore_errors=True)
        os.replace(staging / name, out_dir / name)
    shutil.rmtree(staging)
    (out_dir / SUCCESS).touch()


# int32 output columns whose values spread widely (tenths of a second, byte counts)
SPREAD_INT32 = ("expiry", "got_expiry", "data_length")


def _parquet_options(name: str) -> dict[str, Any]:
    """How to encode an output table's columns, chosen for the CPU they cost (measured in
    docs/pipeline.md): wide integers (times, seq values, depths: they hardly repeat, but follow
    each other closely) and the int32 columns of many values (:data:`SPREAD_INT32`)
    delta-encoded and left uncompressed, which is both cheaper and smaller than snappy on plain
    values (or than dictionary pages that overflow); names and small numbers as dictionary
    pages, snappy; min/max
    statistics for numbers only (on text they cost a sixth of the writing: for the
    dictionary-encoded names Arrow works them out from the text of every batch, and identifiers
    are random hex, no use to a reader's filter)."""
    columns = OUTPUT_COLUMNS[name]
    ids = [c for c in columns if c.endswith("_id")]
    wide = [c for c, dtype in columns.items() if dtype in ("int64", "Int64") or c in SPREAD_INT32]
    return {
        "use_dictionary": [c for c in columns if c not in wide and c not in ids],
        "column_encoding": dict.fromkeys(wide, "DELTA_BINARY_PACKED"),
        "compression": {c: "none" if c in wide else "snappy" for c in columns},
        "write_statistics": [c for c, dtype in columns.items() if dtype != "string"],
    }


class PartWriter:
    """One part file of each output table, appended to batch by batch (each table may be
    written from its own thread).

    Files are written under temporary names and renamed on a successful close, so a retried
    Spark task replaces its part; a table never written gets an empty part (with its schema).
    """

    def __init__(self, staging: str | Path, part: int) -> None:
        self.staging = Path(staging)
        self.part = part
        self.writers: dict[str, pq.ParquetWriter] = {}
        self.rows = dict.fromkeys(TABLES, 0)

    def _path(self, name: str) -> Path:
        return self.staging / name / f"part-{self.part:05d}.parquet"

    def _temporary(self, name: str) -> Path:
        return self._path(name).with_name(f"{self._path(name).name}.{os.getpid()}.tmp")

    def write(self, name: str, table: pa.Table) -> None:
        """Append rows (in the table's schema of ``tables.SCHEMAS``) to one table."""
        # where tables are written (the tasks, the streaming replay), not where files are opened
        from mqlearn.pipeline.tables import SCHEMAS

        if name not in self.writers:
            self._path(name).parent.mkdir(parents=True, exist_ok=True)
            self.writers[name] = pq.ParquetWriter(  # Arrow's schema not stored: readers see text
                self._temporary(name), SCHEMAS[name], store_schema=False, **_parquet_options(name)
            )
        self.writers[name].write_table(table)
        self.rows[name] += table.num_rows

    def __enter__(self) -> PartWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        from mqlearn.pipeline.tables import SCHEMAS

        for name in TABLES:
            if kind is None and name not in self.writers:
                self.write(name, SCHEMAS[name].empty_table())
        for writer in self.writers.values():
            writer.close()
        for name in self.writers:
            if kind is None:
                os.replace(self._temporary(name), self._path(name))
            else:
                self._temporary(name).unlink(missing_ok=True)


def read_outputs(out: str | Path) -> dict[str, pd.DataFrame]:
    """The five output tables of a replay as pandas, in their declared dtypes (small outputs:
    for tests and notebooks; use Spark or pyarrow.dataset to read big ones)."""
    out_dir = Path(out)
    if not (out_dir / SUCCESS).exists():
        raise FileNotFoundError(f"{out_dir} holds no finished replay (no {SUCCESS})")
    return {
        name: arrow_to_pandas(pq.read_table(out_dir / name), OUTPUT_COLUMNS[name])
        for name in TABLES
    }
