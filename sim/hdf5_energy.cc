#include "sim/hdf5_energy.h"

#include <cmath>
#include <string>

namespace sassim::sim {

void write_energy(H5::H5File& file, const std::vector<KernelResult>& results) {
  bool modelled = false;
  for (const KernelResult& r : results) modelled |= r.energy.modelled;
  if (!modelled) return;
  H5::Group group = file.createGroup("energy");
  std::vector<double> joules, voltage;
  for (const KernelResult& r : results) {
    for (double j : r.energy.joules) joules.push_back(r.energy.modelled ? j : std::nan(""));
    voltage.push_back(r.energy.modelled ? r.energy.core_voltage_v : std::nan(""));
  }
  const hsize_t dims[2] = {results.size(), kNumEnergyParts};
  H5::DataSet ds =
      group.createDataSet("joules", H5::PredType::NATIVE_DOUBLE, H5::DataSpace(2, dims));
  ds.write(joules.data(), H5::PredType::NATIVE_DOUBLE);
  H5::StrType str(H5::PredType::C_S1, H5T_VARIABLE);
  str.setCset(H5T_CSET_UTF8);
  std::vector<std::string> names;
  std::vector<const char*> name_ptrs;
  for (std::size_t p = 0; p < kNumEnergyParts; ++p) {
    names.emplace_back(energy_part_name(static_cast<EnergyPart>(p)));
  }
  for (const std::string& n : names) name_ptrs.push_back(n.c_str());
  const hsize_t parts = kNumEnergyParts;
  ds.createAttribute("components", str, H5::DataSpace(1, &parts)).write(str, name_ptrs.data());
  const char* unit = "J";
  ds.createAttribute("units", str, H5::DataSpace(H5S_SCALAR)).write(str, &unit);
  const hsize_t rows = results.size();
  H5::DataSet v =
      group.createDataSet("core_voltage_v", H5::PredType::NATIVE_DOUBLE, H5::DataSpace(1, &rows));
  v.write(voltage.data(), H5::PredType::NATIVE_DOUBLE);
  const char* volts = "V";
  v.createAttribute("units", str, H5::DataSpace(H5S_SCALAR)).write(str, &volts);
}

}  // namespace sassim::sim
