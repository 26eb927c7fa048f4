/// Property attributes that need every model to be known: a `default:` naming an enum value.
extension SpecValidator {
    /// A default of a property whose type is a model must be a value of that enum; the parser
    /// already checked scalar defaults against their primitive types where they are written.
    mutating func checkDefault(of property: PropertySpec, in owner: String) {
        guard let value = property.defaultValue, case .named(let name) = property.type.nonOptional,
              !brokenNames.contains(name), let model = modelsByName[name] else { return }
        let location = property.defaultLocation ?? property.location
        guard model.isEnum else {
            error("property '\(property.name)' of \(owner) has type '\(name)', a model that is not an enum, and cannot have a default",
                  at: location)
            return
        }
        if model.enumCase(matching: value.description) == nil {
            let hint = Suggestions.closest(to: value.description, among: model.enumCases.map(\.value)).map { "; did you mean '\($0)'?" } ?? ""
            error("the default of property '\(property.name)' of \(owner) is '\(value)', which is not a value of enum '\(name)'\(hint)",
                  at: location)
        }
    }
}
