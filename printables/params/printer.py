"""The printer, material and print settings the Giuthi parts are sliced and printed with: the
slicer check slices with them (printables/check/slicer.py) and the print card prints them
(printables/render/giuthi_card.py)."""

from __future__ import annotations

from dataclasses import dataclass

PROFILE_FILE = "dremel-3d45-giuthi.ini"  # the PrusaSlicer profile written beside the parts


@dataclass(frozen=True)
class PrinterProfile:
    """The printer, material and print settings the project slices with (mm, degrees, percent)."""

    printer: str = "Dremel DigiLab 3D45"
    bed_mm: tuple[float, float, float] = (255.0, 155.0, 170.0)
    nozzle_mm: float = 0.4
    filament_mm: float = 1.75
    material: str = "PLA"
    filament_density_g_cm3: float = 1.24
    nozzle_temp_c: int = 215
    bed_temp_c: int = 60
    layer_height_mm: float = 0.2
    infill_percent: int = 20
    perimeters: int = 2
    # A 0.8 mm top shell over 20 % infill, as Dremel's own 0.20 mm profile, and a 0.6 mm bottom:
    # on a board of 160 x 145 mm per half the shells are most of the filament.
    top_layers: int = 4
    bottom_layers: int = 3
    overhang_limit_deg: int = 45  # the flattest downward slope, from the bed, printed unsupported
    # PrusaSlicer supports slopes up to and including its threshold, so a face at exactly 45
    # degrees (the project's chamfers, teardrops and groove flanks) needs a threshold of 44 to
    # pass, while a 40-degree face still gets support.
    support_threshold_deg: int = 44
    raft_layers: int = 0
    # Sparse infill printed 0.4 mm thick every second layer, as Dremel's own 3D45 profile does
    # ("combine infill" in its 0.20 mm Standard process for OrcaSlicer).
    infill_every_layers: int = 2
    # Speeds (mm/s) a 3D45 owner prints PLA at. Dremel's 0.20 mm Standard profile for the 3D45:
    # inner walls 60, outer walls 30, solid infill 50, sparse 55, top surface 35, bridges 50,
    # first layer 25, travel 100, acceleration capped at the printer's 1500 mm/s2 when extruding.
    # These are a little brisker where PLA on a 3D45 commonly runs so: outer walls 40, solid
    # infill 60, sparse infill 80 (well under the printer's 150), travel 150.
    first_layer_speed_mm_s: int = 25
    perimeter_speed_mm_s: int = 60
    external_perimeter_speed_mm_s: int = 40
    small_perimeter_speed_mm_s: int = 30
    infill_speed_mm_s: int = 80
    solid_infill_speed_mm_s: int = 60
    top_solid_infill_speed_mm_s: int = 40
    gap_fill_speed_mm_s: int = 35
    bridge_speed_mm_s: int = 40
    travel_speed_mm_s: int = 150
    acceleration_mm_s2: int = 1500  # the 3D45's extruding and retracting limit


DREMEL_3D45 = PrinterProfile()
