import CourierRuntime
import CourierTesting
import StoreAPI

// Calls the generated client over the stub transport, so the output is the same on every run
// and nothing leaves the machine.
let stub = StubTransport()
stub.on(.get, "/v1/pets", .json(#"[{"id": 1, "name": "Rex", "tag": "dog"}, {"id": 2, "name": "Tom"}]"#))

let pets = PetsClient(transport: stub)
do {
    for pet in try await pets.listPets() {
        print("pet \(pet.id): \(pet.name)\(pet.tag.map { " (\($0))" } ?? "")")
    }
} catch {
    print("listPets failed: \(error)")
}

// The client generated from the OpenAPI document of the StoreAPI target.
stub.on(.get, "/v2/inventory", .json(#"{"available": 7, "status": "open"}"#))
do {
    let inventory = try await StoreClient(transport: stub).getInventory()
    print("store: \(inventory.summary)")
} catch {
    print("getInventory failed: \(error)")
}
